import { Anchor, Box, Button, Card, Container, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Suspense, type ReactNode } from 'react';
import { Link } from 'react-router';
import { defaultHeroSeconds } from '#shared/landing/landing.rules.ts';
import { useCurrentUser } from '#web/features/accounts/current-user.api.ts';
import { ProcedureCard } from '#web/features/catalog/components/procedure-card.tsx';
import { ContinueWatchingRow } from '#web/features/catalog/components/continue-watching-row.ts';
import { breakpointsEm, cardSizes } from '#shared/media/picture-variants.ts';
import { useLanding } from '#web/features/landing/landing.api.ts';
import { DefaultHero, HeroCarousel } from '#web/features/landing/components/hero-carousel.tsx';
import { InitialsAvatar } from '#web/features/landing/components/initials-avatar.tsx';
import { MembershipPlans } from '#web/features/landing/components/membership-plans.tsx';
import { PartnerLogo } from '#web/features/landing/components/partner-logo.tsx';
import { SponsorCarousel } from '#web/features/landing/components/sponsor-carousel.tsx';
import { paths } from '#web/paths.ts';
import classes from './landing.module.css';

const reasons = [
  {
    title: 'Cirugías paso a paso',
    text: 'Videos de procedimientos quirúrgicos con secciones navegables para ir directo a cada etapa.',
  },
  {
    title: 'Guías en PDF',
    text: 'Cada procedimiento incluye una guía descargable para repasar antes de entrar a quirófano.',
  },
  {
    title: 'Cursos y diplomados',
    text: 'Diplomados con exámenes y constancia, además de descuentos en cursos y talleres.',
  },
  {
    title: 'Comunidad y eventos',
    text: 'Agenda de congresos, webinars y talleres para seguir aprendiendo con colegas.',
  },
];

const testimonials = [
  {
    name: 'Dra. Mariana López',
    role: 'Médica veterinaria, pequeñas especies',
    quote:
      'Repasar la técnica en video antes de una cirugía me da mucha seguridad. Las secciones navegables me ahorran tiempo.',
  },
  {
    name: 'Carlos Hernández',
    role: 'Estudiante de Medicina Veterinaria',
    quote:
      'Las guías en PDF me ayudaron a preparar mis prácticas de cirugía. Todo está explicado con claridad y en español.',
  },
  {
    name: 'Dr. Andrés Ramírez',
    role: 'Cirujano veterinario, ortopedia',
    quote: 'Un catálogo muy completo y bien producido. Lo recomiendo a los residentes que están empezando.',
  },
];

function Section(props: { id: string; title: string; intro?: string; tinted?: boolean; children: ReactNode }) {
  return (
    <Box
      component="section"
      aria-labelledby={props.id}
      className={`${classes.section} ${props.tinted ? classes.tinted : ''}`}
    >
      <Container size="lg">
        <Title id={props.id} order={2} ta="center" mb={props.intro ? 'xs' : 'xl'}>
          {props.title}
        </Title>
        {props.intro && (
          <Text ta="center" c="dimmed" mb="xl" maw={680} mx="auto">
            {props.intro}
          </Text>
        )}
        {props.children}
      </Container>
    </Box>
  );
}

// the sample procedures' grid below: Container lg, one column, three from sm
const sampleCardSizes = cardSizes({ containerPx: 1140, columns: { 0: 1, [breakpointsEm.sm]: 3 }, gapPx: 20 });

export function LandingPage() {
  const { user } = useCurrentUser();
  const landing = useLanding();
  const isGuest = !user;
  const slides = landing.data?.slides ?? [];

  return (
    <>
      {landing.isPending ? (
        <Skeleton height={480} radius={0} aria-hidden />
      ) : slides.length > 1 ? (
        <HeroCarousel
          slides={slides}
          slideSeconds={landing.data?.slideSeconds || defaultHeroSeconds}
          isGuest={isGuest}
        />
      ) : (
        <DefaultHero isGuest={isGuest} />
      )}

      {user && (
        <Container size="lg">
          <Suspense fallback={null}>
            <ContinueWatchingRow headingLevel={2} pt="xl" />
          </Suspense>
        </Container>
      )}

      <Section id="razones" title="¿Por qué unirte a CxVet?">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="xl">
          {reasons.map((reason, index) => (
            <Stack key={reason.title} gap="xs">
              <Text className={classes.reasonNumber} aria-hidden>
                {String(index + 1).padStart(2, '0')}
              </Text>
              <Title order={3} size="h4">
                {reason.title}
              </Title>
              <Text>{reason.text}</Text>
            </Stack>
          ))}
        </SimpleGrid>
      </Section>

      {(landing.data?.endorsements.length ?? 0) > 0 && (
        <Section
          id="avales"
          title="Nos avalan"
          tinted
          intro="Instituciones que respaldan la calidad de nuestro contenido."
        >
          <Group justify="center" gap="xl">
            {landing.data?.endorsements.map((partner) => (
              <Box key={partner.id} w={220}>
                <PartnerLogo partner={partner} />
              </Box>
            ))}
          </Group>
        </Section>
      )}

      <Section id="muestras" title="Algunos de nuestros procedimientos">
        {landing.isPending ? (
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} height={340} />
            ))}
          </SimpleGrid>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
            {landing.data?.sampleProcedures.map((procedure) => (
              <ProcedureCard key={procedure.id} procedure={procedure} sizes={sampleCardSizes} />
            ))}
          </SimpleGrid>
        )}
        <Group justify="center" mt="xl">
          <Button component={Link} to={paths.catalog} variant="outline" size="md">
            Ver el catálogo completo
          </Button>
        </Group>
      </Section>

      <Section
        id="membresias"
        title="Membresías"
        tinted
        intro="Empieza gratis con la membresía Básica y cámbiate a Premium cuando quieras."
      >
        <MembershipPlans isGuest={isGuest} />
      </Section>

      <Section id="testimonios" title="Lo que dicen nuestros usuarios">
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
          {testimonials.map((testimonial) => (
            <Card key={testimonial.name} withBorder radius="md" padding="lg" component="figure" m={0}>
              <Text component="blockquote" m={0} fs="italic">
                “{testimonial.quote}”
              </Text>
              <Group gap="sm" mt="md" component="figcaption">
                <InitialsAvatar name={testimonial.name} size={44} />
                <div>
                  <Text fw={700}>{testimonial.name}</Text>
                  <Text size="sm" c="dimmed">
                    {testimonial.role}
                  </Text>
                </div>
              </Group>
            </Card>
          ))}
        </SimpleGrid>
      </Section>

      {(landing.data?.sponsors.length ?? 0) > 0 && (
        <Section id="patrocinadores" title="Patrocinadores" tinted>
          <SponsorCarousel sponsors={landing.data?.sponsors ?? []} />
        </Section>
      )}

      <Container size="lg" pb="xl" pt="md">
        <Text ta="center" size="sm" c="dimmed">
          ¿Tienes dudas? Consulta las{' '}
          <Anchor component={Link} to={paths.faq}>
            preguntas frecuentes
          </Anchor>{' '}
          o{' '}
          <Anchor component={Link} to={paths.contact}>
            contáctanos
          </Anchor>
          .
        </Text>
      </Container>
    </>
  );
}

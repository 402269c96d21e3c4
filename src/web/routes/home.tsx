import { Button, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useCurrentUser } from '#web/features/accounts/api.ts';
import { paths } from '#web/paths.ts';
import classes from './home.module.css';

const highlights = [
  {
    title: 'Procedimientos en video',
    text: 'Cirugías explicadas paso a paso, con secciones navegables para ir directo a cada etapa.',
  },
  {
    title: 'Guías en PDF',
    text: 'Cada procedimiento incluye una guía descargable para estudiarla cuando quieras.',
  },
  {
    title: 'Cursos y diplomados',
    text: 'Diplomados con exámenes y constancia, además de descuentos en cursos y talleres.',
  },
];

export function HomePage() {
  return (
    <>
      <Hero />
      <Container size="lg" py={{ base: 40, md: 64 }} component="section" aria-labelledby="highlights-title">
        <Title id="highlights-title" order={2} ta="center" mb="xl">
          Lo que encontrarás en CxVet
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xl">
          {highlights.map((item) => (
            <Stack key={item.title} gap="xs">
              <Title order={3} size="h4" c="blue.9">
                {item.title}
              </Title>
              <Text>{item.text}</Text>
            </Stack>
          ))}
        </SimpleGrid>
      </Container>
    </>
  );
}

function Hero() {
  const { user } = useCurrentUser();

  return (
    <section className={classes.hero} aria-labelledby="home-title">
      <Container size="md">
        <Stack align="center" gap="lg" py={{ base: 56, md: 96 }}>
          <Title id="home-title" order={1} className={classes.title}>
            CxVet
          </Title>
          <Text className={classes.pitch}>
            Aprende cirugía veterinaria con videos de procedimientos quirúrgicos, guías en PDF y
            diplomados, desde estudiantes hasta cirujanos experimentados.
          </Text>
          <Group justify="center">
            {!user && (
              <Button component={Link} to={paths.signUp} size="lg" color="white" c="blue.9">
                Únete a CxVet
              </Button>
            )}
            <Button component={Link} to={paths.catalog} size="lg" variant="outline" color="white">
              Ver procedimientos
            </Button>
          </Group>
        </Stack>
      </Container>
    </section>
  );
}

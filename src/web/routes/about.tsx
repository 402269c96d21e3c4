import { Card, Container, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { InitialsAvatar } from '#web/features/landing/components/initials-avatar.tsx';

const team = [
  {
    name: 'Dra. Lucía Fernández Ortiz',
    role: 'Fundadora y directora académica',
    bio: 'Cirujana de tejidos blandos con más de quince años de práctica clínica y docente.',
  },
  {
    name: 'Dr. Javier Morales Vega',
    role: 'Cofundador, cirugía ortopédica',
    bio: 'Especialista en ortopedia y traumatología de pequeñas especies.',
  },
  {
    name: 'Dra. Sofía Castillo Ruiz',
    role: 'Cofundadora, anestesiología',
    bio: 'Responsable de los protocolos de anestesia y analgesia de nuestros procedimientos.',
  },
  {
    name: 'Dr. Miguel Ángel Torres',
    role: 'Cofundador, producción de contenidos',
    bio: 'Coordina la grabación y edición de los videos quirúrgicos y sus guías.',
  },
];

// An introduction video of the team, embedded with the privacy-enhanced player.
const introVideoId = 'M7lc1UVf-VE';

export function AboutPage() {
  return (
    <Container size="lg" py={{ base: 'lg', md: 40 }}>
      <Title order={1} mb="sm">
        Nosotros
      </Title>
      <Text size="lg" mb="xl" maw={760}>
        CxVet nació de un grupo de médicos veterinarios que querían compartir su experiencia quirúrgica con colegas y
        estudiantes de habla hispana.
      </Text>

      <Title order={2} mb="lg">
        Equipo fundador
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="lg" mb={48}>
        {team.map((person) => (
          <Card key={person.name} withBorder radius="md" padding="lg">
            <Stack align="center" gap="xs" ta="center">
              <InitialsAvatar name={person.name} size={72} />
              <Title order={3} size="h5">
                {person.name}
              </Title>
              <Text size="sm" fw={600} c="blue.9">
                {person.role}
              </Text>
              <Text size="sm">{person.bio}</Text>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl" mb={48}>
        <section aria-labelledby="mision">
          <Title order={2} id="mision" mb="sm">
            Misión
          </Title>
          <Text>
            Facilitar el aprendizaje de la cirugía veterinaria con contenidos claros, prácticos y en español, para que
            cada profesional opere con más seguridad y mejore el bienestar de sus pacientes.
          </Text>
        </section>
        <section aria-labelledby="vision">
          <Title order={2} id="vision" mb="sm">
            Visión
          </Title>
          <Text>
            Ser la comunidad de referencia en educación quirúrgica veterinaria de habla hispana, uniendo a estudiantes,
            clínicos, universidades y empresas del sector.
          </Text>
        </section>
      </SimpleGrid>

      <Title order={2} mb="md">
        Conócenos
      </Title>
      <div
        style={{
          position: 'relative',
          aspectRatio: '16 / 9',
          maxWidth: 860,
          background: 'var(--mantine-color-dark-7)',
          borderRadius: 8,
        }}
      >
        <iframe
          src={`https://www.youtube-nocookie.com/embed/${introVideoId}`}
          title="Video de presentación del equipo de CxVet"
          loading="lazy"
          allow="accelerometer; encrypted-media; gyroscope; picture-in-picture"
          allowFullScreen
          style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', border: 0, borderRadius: 8 }}
        />
      </div>
    </Container>
  );
}

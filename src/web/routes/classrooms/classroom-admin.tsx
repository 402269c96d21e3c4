import { Alert, Button, Card, Container, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { countOf } from '#shared/text.ts';
import { Link } from 'react-router';
import { useManagedClassrooms } from '#web/features/classrooms/classrooms.api.ts';
import { longSpanishDate } from '#web/features/classrooms/format.ts';
import { href } from '#web/paths.ts';

/** /administrar-aula: the active aulas this account administers. */
export function ClassroomAdminPage() {
  const classrooms = useManagedClassrooms();
  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Title order={1}>Administrar aula</Title>
        {classrooms.isPending ? (
          <Skeleton h={140} radius="md" role="status" aria-label="Cargando aulas" />
        ) : classrooms.isError ? (
          <Alert color="red">No se pudieron cargar tus aulas, intenta más tarde.</Alert>
        ) : classrooms.data.length === 0 ? (
          <Text>No administras ningún aula activa.</Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            {classrooms.data.map((classroom) => (
              <Card key={classroom.id} withBorder radius="md" padding="md" component="article">
                <Stack gap={6}>
                  <Title order={2} size="h4">
                    {classroom.title}
                  </Title>
                  <Text size="sm" c="dimmed">
                    {classroom.organizationTitle} · Disponible hasta el {longSpanishDate(classroom.expiresAt)}
                  </Text>
                  <Text size="sm">{countOf(classroom.userCount, 'usuario', 'usuarios')}</Text>
                  <Group>
                    <Button
                      component={Link}
                      to={href.classroomAdminDetail(classroom.id)}
                      aria-label={`Administrar usuarios de ${classroom.title}`}
                    >
                      Administrar usuarios
                    </Button>
                  </Group>
                </Stack>
              </Card>
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </Container>
  );
}

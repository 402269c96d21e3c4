import { Container, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMyClassrooms } from '#web/features/classrooms/classrooms.api.ts';
import { ClassroomCard } from '#web/features/classrooms/components/classroom-card.tsx';
import { LoadErrorAlert } from '#web/components/load-error-alert.tsx';

/** /mis-aulas: the aulas this account may enter whose expiry lies in the future. */
export function MyClassroomsPage() {
  const classrooms = useMyClassrooms();
  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Title order={1}>Aulas Virtuales</Title>
        {classrooms.isPending ? (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} role="status" aria-label="Cargando aulas">
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} h={320} radius="md" />
            ))}
          </SimpleGrid>
        ) : classrooms.isError ? (
          <LoadErrorAlert>No se pudieron cargar tus aulas, intenta más tarde.</LoadErrorAlert>
        ) : classrooms.data.length === 0 ? (
          <Text>No tienes aulas disponibles por ahora.</Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
            {classrooms.data.map((classroom) => (
              <ClassroomCard key={classroom.id} classroom={classroom} />
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </Container>
  );
}

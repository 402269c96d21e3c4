import { Container, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMyDiplomas } from '#web/features/diplomas/member/diplomas.api.ts';
import { DiplomaCard } from '#web/features/diplomas/member/components/diploma-card.tsx';
import { LoadErrorAlert } from '#web/components/load-error-alert.tsx';

/** /mis-diplomados: active diplomas, newest first. */
export function MyDiplomasPage() {
  const diplomas = useMyDiplomas();
  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Title order={1}>Cursos y diplomados</Title>
        {diplomas.isPending && <Loader aria-label="Cargando diplomados" />}
        {diplomas.isError && <LoadErrorAlert>No se pudieron cargar los diplomados. Intenta de nuevo.</LoadErrorAlert>}
        {diplomas.data?.length === 0 && <Text>Por ahora no hay diplomados disponibles.</Text>}
        {diplomas.data && diplomas.data.length > 0 && (
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            {diplomas.data.map((diploma, index) => (
              <DiplomaCard key={diploma.id} diploma={diploma} first={index === 0} />
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </Container>
  );
}

import { Alert, Anchor, Container, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { breakpointsEm, cardSizes } from '#shared/media/picture-variants.ts';
import { ProcedureCard } from '#web/features/catalog/components/procedure-card.tsx';
import { useFavorites } from '#web/features/watching/watching.api.ts';
import { paths } from '#web/paths.ts';

/** /mis-favoritos: the procedures the member marked with the heart, newest first. */
// the grid below: Container xl, one, two and three columns
const favoriteCardSizes = cardSizes({
  containerPx: 1320,
  columns: { 0: 1, [breakpointsEm.sm]: 2, [breakpointsEm.lg]: 3 },
  gapPx: 20,
});

export function MyFavoritesPage() {
  const favorites = useFavorites();
  return (
    <Container size="xl" py={{ base: 'lg', md: 40 }}>
      <Stack gap="lg">
        <Title order={1}>Mis favoritos</Title>
        {favorites.isPending ? (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} role="status" aria-label="Cargando favoritos">
            {[0, 1, 2].map((index) => (
              <Skeleton key={index} h={340} radius="md" />
            ))}
          </SimpleGrid>
        ) : favorites.isError ? (
          <Alert color="red" role="alert">
            No se pudieron cargar tus favoritos, intenta más tarde.
          </Alert>
        ) : favorites.data.length === 0 ? (
          <Stack gap="xs" role="status">
            <Text>Aún no tienes procedimientos favoritos.</Text>
            <Text>
              Toca el corazón de un procedimiento para guardarlo aquí.{' '}
              <Anchor component={Link} to={paths.catalog} fw={700}>
                Ir al catálogo
              </Anchor>
            </Text>
          </Stack>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
            {favorites.data.map((procedure, index) => (
              <ProcedureCard
                key={procedure.id}
                procedure={procedure}
                headingLevel={2}
                eager={index < 3}
                sizes={favoriteCardSizes}
              />
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </Container>
  );
}

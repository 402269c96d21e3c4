import type { QueryClient } from '@tanstack/react-query';
import { Box, Group, Progress, SimpleGrid, Skeleton, Text, Title, type MantineSpacing } from '@mantine/core';
import { formatClock, watchedPercent } from '#shared/watching/watching.rules.ts';
import { breakpointsEm, cardSizes } from '#shared/media/picture-variants.ts';
import { ProcedureCard } from '#web/features/catalog/components/procedure-card.tsx';
import { continueWatchingQuery, useContinueWatching } from '#web/features/watching/watching.api.ts';

type Props = { headingLevel: 2; titleAlign?: 'left' | 'center'; pt?: MantineSpacing };

// the row's grid, in the catalogue's Container xl (the home page's lg is narrower: its pictures are then a little larger than needed)
const rowCardSizes = cardSizes({
  containerPx: 1320,
  columns: { 0: 1, [breakpointsEm.xs]: 2, [breakpointsEm.md]: 3, [breakpointsEm.lg]: 4 },
  gapPx: 20,
});

/** 'Seguir viendo': the member's started, unfinished procedures, newest first; nothing when there are none. */
function ContinueWatching({ headingLevel, titleAlign = 'left', pt }: Props) {
  const list = useContinueWatching();
  if (list.isPending) {
    return (
      <Box role="status" aria-label="Cargando Seguir viendo" mb="xl" pt={pt}>
        <Skeleton height={28} width={200} mb="md" />
        <Skeleton height={120} />
      </Box>
    );
  }
  // a failed load of this row must not take the page with it: the rest of the page still works
  if (list.isError || list.data.length === 0) return null;
  return (
    <Box component="section" aria-labelledby="seguir-viendo" mb="xl" pt={pt}>
      <Title order={headingLevel} id="seguir-viendo" size="h3" mb="md" ta={titleAlign}>
        Seguir viendo
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="lg">
        {list.data.map(({ procedure, positionSeconds, durationSeconds }) => {
          const percent = watchedPercent(positionSeconds, durationSeconds);
          return (
            <ProcedureCard
              key={procedure.id}
              procedure={procedure}
              headingLevel={3}
              sizes={rowCardSizes}
              footer={
                <Box mt="sm">
                  <Progress
                    value={percent}
                    size="md"
                    color="blue.8"
                    aria-label={`Progreso de ${procedure.name}: ${percent} %`}
                  />
                  <Group justify="space-between" mt={4}>
                    <Text size="xs" c="dimmed">
                      {formatClock(positionSeconds)} de {formatClock(durationSeconds)}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {percent} %
                    </Text>
                  </Group>
                </Box>
              }
            />
          );
        })}
      </SimpleGrid>
    </Box>
  );
}

/** The row's data, for the page's route loader; a failed load leaves the row out, as it does on screen. */
export const loadContinueWatching = (queryClient: QueryClient) => queryClient.prefetchQuery(continueWatchingQuery);

export default ContinueWatching;

import { Button, Group, Loader, Progress, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RenditionStatusView } from '#shared/renditions/renditions.schemas.ts';
import { api } from '#web/lib/api-client.ts';

const statusKey = (videoKey: string) => ['admin', 'video-renditions', videoKey] as const;

/** Where a saved video's data-saver versions stand: preparing with a percentage, ready, or the error with a retry. */
export function VideoRenditionStatus({ videoKey, saved }: { videoKey: string; saved: boolean }) {
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: statusKey(videoKey),
    queryFn: () =>
      api
        .get<{ items: RenditionStatusView[] }>(`/api/admin/video-renditions?keys=${encodeURIComponent(videoKey)}`)
        .then((body) => body.items[0] ?? null),
    enabled: saved,
    // follows the job while it runs; stops asking once it is ready or failed
    refetchInterval: (query) =>
      query.state.data?.status === 'pending' || query.state.data?.status === 'processing' ? 2000 : false,
  });
  const prepare = useMutation({
    mutationFn: () => api.post<unknown>('/api/admin/video-renditions', { key: videoKey }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: statusKey(videoKey) }),
  });

  if (!saved) {
    return (
      <Text size="xs" c="dimmed">
        Las versiones para ahorro de datos se preparan al guardar.
      </Text>
    );
  }
  const item = status.data;
  if (!item) {
    if (status.isPending) return null;
    return (
      <Group gap="xs">
        <Text size="xs" c="dimmed">
          Sin versiones para ahorro de datos: se muestra el archivo original.
        </Text>
        <Button size="compact-xs" variant="light" onClick={() => prepare.mutate()} loading={prepare.isPending}>
          Preparar versiones
        </Button>
      </Group>
    );
  }
  if (item.status === 'pending' || item.status === 'processing') {
    return (
      <Stack gap={4} role="status" aria-live="polite">
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm">Preparando versiones… {item.progress} %</Text>
        </Group>
        <Progress value={item.progress} size="sm" aria-label="Progreso de las versiones" />
        <Text size="xs" c="dimmed">
          Mientras tanto se muestra el archivo original.
        </Text>
      </Stack>
    );
  }
  if (item.status === 'ready') {
    return (
      <Text size="sm" fw={600} role="status">
        Listo · versiones {item.heights.map((height) => `${height}p`).join(', ')}
      </Text>
    );
  }
  return (
    <Stack gap={4} role="alert">
      <Text size="sm" c="red.9">
        {item.error ?? 'No se pudieron preparar las versiones.'}
      </Text>
      <Group>
        <Button
          size="compact-xs"
          variant="light"
          color="red"
          onClick={() => prepare.mutate()}
          loading={prepare.isPending}
        >
          Reintentar
        </Button>
      </Group>
    </Stack>
  );
}

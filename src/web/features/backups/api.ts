import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BackupsStatus } from '#shared/backups/backups.schemas.ts';
import { api } from '#web/lib/api-client.ts';

const key = ['admin', 'backups'] as const;

/** The last backup, the kept archives and the schedule; polled while a backup waits or runs. */
export function useBackups() {
  return useQuery({
    queryKey: key,
    queryFn: () => api.get<BackupsStatus>('/api/admin/backups'),
    refetchInterval: (query) => (query.state.data?.pending ? 3000 : 60_000),
  });
}

/** Queues a backup; `queued: false` means one was already waiting or running. */
export function useStartBackup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ queued: boolean }>('/api/admin/backups', {}),
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });
}

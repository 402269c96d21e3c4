import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BackupsStatus } from '#shared/backups/backups.schemas.ts';
import { api } from '#web/lib/api-client.ts';

const backupKeys = {
  all: ['backups'] as const,
  status: () => [...backupKeys.all, 'status'] as const,
};

const backupsApi = {
  status: (signal?: AbortSignal) => api.get<BackupsStatus>('/api/admin/backups', { signal }),
  start: () => api.post<{ queued: boolean }>('/api/admin/backups', {}),
};

/** The last backup, the kept archives and the schedule; polled while a backup waits or runs. */
export function useBackups() {
  return useQuery({
    queryKey: backupKeys.status(),
    queryFn: ({ signal }) => backupsApi.status(signal),
    refetchInterval: (query) => (query.state.data?.pending ? 3000 : 60_000),
  });
}

/** Queues a backup; `queued: false` means one was already waiting or running. */
export function useStartBackup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: backupsApi.start,
    onSettled: () => client.invalidateQueries({ queryKey: backupKeys.all }),
  });
}

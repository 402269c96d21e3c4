import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeviceSessionList } from '#shared/accounts/devices.schemas.ts';
import { api } from '#web/lib/api-client.ts';

export const deviceSessionsQueryKey = ['device-sessions'] as const;

/** The member's signed-in sessions; refreshed now and then so 'Reproduciendo aquí' follows the video. */
export function useDeviceSessions() {
  return useQuery({
    queryKey: deviceSessionsQueryKey,
    queryFn: async () => (await api.get<DeviceSessionList>('/api/account/sessions')).sessions,
    refetchInterval: 30_000,
    retry: false,
  });
}

export function useCloseSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/api/account/sessions/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deviceSessionsQueryKey }),
  });
}

export function useCloseOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ closed: number }>('/api/account/sessions/close-others'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deviceSessionsQueryKey }),
  });
}

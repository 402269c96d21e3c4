import { useQuery } from '@tanstack/react-query';
import type { Landing } from '#shared/landing/landing.schemas.ts';
import { api } from '#web/lib/api-client.ts';

export function useLanding() {
  return useQuery({
    queryKey: ['landing'],
    queryFn: ({ signal }) => api.get<Landing>('/api/landing', { signal }),
  });
}

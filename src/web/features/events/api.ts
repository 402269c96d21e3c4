import { useQuery } from '@tanstack/react-query';
import type { PublicEvent } from '#shared/events/events.schemas.ts';
import { api } from '#web/lib/api-client.ts';

export function usePublicEvents() {
  return useQuery({
    queryKey: ['events', 'public'],
    queryFn: ({ signal }) => api.get<{ events: PublicEvent[] }>('/api/events', { signal }),
  });
}

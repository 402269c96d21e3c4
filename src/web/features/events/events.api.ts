import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AdminEvent, adminEventListSchema, EventInput } from '#shared/events/events.admin.schemas.ts';
import type { okSchema } from '#shared/records.schemas.ts';
import type { publicEventsSchema } from '#shared/events/events.schemas.ts';
import { useRefreshQueries } from '#web/components/console/console-cache.ts';
import { landingKeys } from '#web/features/landing/landing.api.ts';
import { api } from '#web/lib/api-client.ts';

const eventKeys = {
  all: ['events'] as const,
  list: (filters: { audience: 'public' | 'admin' }) => [...eventKeys.all, 'list', filters] as const,
  detail: (id: string) => [...eventKeys.all, 'detail', id] as const,
};

const adminPath = (id: string) => `/api/admin/events/${encodeURIComponent(id)}`;

const eventsApi = {
  listPublic: (signal?: AbortSignal) => api.get<z.infer<typeof publicEventsSchema>>('/api/events', { signal }),
  listAdmin: (signal?: AbortSignal) => api.get<z.infer<typeof adminEventListSchema>>('/api/admin/events', { signal }),
  get: (id: string, signal?: AbortSignal) => api.get<AdminEvent>(adminPath(id), { signal }),
  save: (id: string, input: EventInput) => api.put<AdminEvent>(adminPath(id), input),
  remove: (id: string) => api.delete<z.infer<typeof okSchema>>(adminPath(id)),
};

export function usePublicEvents() {
  return useQuery({
    queryKey: eventKeys.list({ audience: 'public' }),
    queryFn: ({ signal }) => eventsApi.listPublic(signal),
  });
}

export const adminEventsQuery = queryOptions({
  queryKey: eventKeys.list({ audience: 'admin' }),
  queryFn: ({ signal }) => eventsApi.listAdmin(signal).then((body) => body.items),
});

export function useAdminEvents() {
  return useQuery(adminEventsQuery);
}

/** One event as its form edits it (the console's route loads it beside the form's code). */
export const adminEventQuery = (id: string) =>
  queryOptions({ queryKey: eventKeys.detail(id), queryFn: ({ signal }) => eventsApi.get(id, signal) });

export function useAdminEvent(id: string, enabled: boolean) {
  return useQuery({ ...adminEventQuery(id), enabled });
}

export function useSaveEvent(id: string) {
  const refresh = useRefreshQueries();
  return useMutation({
    mutationFn: (input: EventInput) => eventsApi.save(id, input),
    onSuccess: () => refresh([eventKeys.all, landingKeys.all]),
  });
}

export function useDeleteEvent(id: string) {
  const refresh = useRefreshQueries();
  return useMutation({
    mutationFn: () => eventsApi.remove(id),
    onSuccess: () => refresh([eventKeys.all, landingKeys.all], eventKeys.detail(id)),
  });
}

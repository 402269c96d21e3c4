import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminEvent, AdminEventRow, EventInput } from '#shared/events/events.admin.schemas.ts';
import type { AdminNewsletter, LandingInput } from '#shared/landing/landing.admin.schemas.ts';
import type { AdminOrganization, OrganizationInput } from '#shared/organizations/organizations.admin.schemas.ts';
import type { AdminProcedure, AdminProcedureListQuery, AdminProcedurePage, ProcedureInput } from '#shared/catalog/procedures.admin.schemas.ts';
import type { AdminTag, TagInput } from '#shared/catalog/tags.admin.schemas.ts';
import type { OutboxMail } from '#shared/mailing/outbox.schemas.ts';
import { api } from '#web/lib/api-client.ts';

const keys = {
  procedures: ['admin', 'procedures'] as const,
  tags: ['admin', 'tags'] as const,
  events: ['admin', 'events'] as const,
  organizations: ['admin', 'organizations'] as const,
  landing: ['admin', 'landing'] as const,
  newsletter: ['admin', 'newsletter'] as const,
};

/** Public pages read the same records: refresh them too after a console change. */
const publicKeys = [['catalog'], ['procedure'], ['events'], ['landing']];

/**
 * Refreshes the console list and the public pages after a change. After a delete the record's own
 * query is dropped instead: refetching it while its form is still on screen answers 404.
 */
function useInvalidate() {
  const queryClient = useQueryClient();
  return (key: readonly string[], deletedId?: string) => {
    const isDeleted = (queryKey: readonly unknown[]) => deletedId !== undefined && queryKey.length === key.length + 1 && queryKey[key.length] === deletedId;
    return Promise.all(
      [key, ...publicKeys].map((queryKey) => queryClient.invalidateQueries({ queryKey, predicate: (query) => !isDeleted(query.queryKey) })),
    );
  };
}

type Items<T> = { items: T[] };

// ---------- surgeries ----------

export function useAdminProcedures(query: AdminProcedureListQuery) {
  const params = new URLSearchParams({ sort: query.sort, dir: query.dir, page: String(query.page), ...(query.q ? { q: query.q } : {}) });
  return useQuery({
    queryKey: [...keys.procedures, 'list', query],
    queryFn: () => api.get<AdminProcedurePage>(`/api/admin/procedures?${params}`),
    placeholderData: keepPreviousData,
  });
}

export function useAdminProcedure(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...keys.procedures, id],
    queryFn: () => api.get<AdminProcedure>(`/api/admin/procedures/${id}`),
    enabled,
  });
}

export function useSaveProcedure(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: ProcedureInput) => api.put<AdminProcedure>(`/api/admin/procedures/${id}`, input),
    onSuccess: () => invalidate(keys.procedures),
  });
}

export function useDeleteProcedure(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: () => api.delete<unknown>(`/api/admin/procedures/${id}`),
    onSuccess: () => invalidate(keys.procedures, id),
  });
}

// ---------- tags ----------

export function useAdminTags() {
  return useQuery({ queryKey: keys.tags, queryFn: () => api.get<Items<AdminTag>>('/api/admin/tags').then((body) => body.items) });
}

export function useAdminTag(id: string, enabled: boolean) {
  return useQuery({ queryKey: [...keys.tags, id], queryFn: () => api.get<AdminTag>(`/api/admin/tags/${id}`), enabled });
}

export function useSaveTag(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: TagInput) => api.put<AdminTag>(`/api/admin/tags/${id}`, input),
    onSuccess: () => Promise.all([invalidate(keys.tags), invalidate(keys.procedures)]),
  });
}

export function useDeleteTag(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: () => api.delete<unknown>(`/api/admin/tags/${id}`),
    onSuccess: () => Promise.all([invalidate(keys.tags, id), invalidate(keys.procedures)]),
  });
}

// ---------- events ----------

export function useAdminEvents() {
  return useQuery({ queryKey: keys.events, queryFn: () => api.get<Items<AdminEventRow>>('/api/admin/events').then((body) => body.items) });
}

export function useAdminEvent(id: string, enabled: boolean) {
  return useQuery({ queryKey: [...keys.events, id], queryFn: () => api.get<AdminEvent>(`/api/admin/events/${id}`), enabled });
}

export function useSaveEvent(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: EventInput) => api.put<AdminEvent>(`/api/admin/events/${id}`, input),
    onSuccess: () => invalidate(keys.events),
  });
}

export function useDeleteEvent(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: () => api.delete<unknown>(`/api/admin/events/${id}`),
    onSuccess: () => invalidate(keys.events, id),
  });
}

// ---------- organizations ----------

export function useAdminOrganizations() {
  return useQuery({
    queryKey: keys.organizations,
    queryFn: () => api.get<Items<AdminOrganization>>('/api/admin/organizations').then((body) => body.items),
  });
}

export function useAdminOrganization(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...keys.organizations, id],
    queryFn: () => api.get<AdminOrganization>(`/api/admin/organizations/${id}`),
    enabled,
  });
}

export function useSaveOrganization(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: OrganizationInput) => api.put<AdminOrganization>(`/api/admin/organizations/${id}`, input),
    onSuccess: () => invalidate(keys.organizations),
  });
}

// ---------- landing photos and newsletter ----------

export function useAdminLanding() {
  return useQuery({ queryKey: keys.landing, queryFn: () => api.get<LandingInput>('/api/admin/landing') });
}

export function useSaveLanding() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: LandingInput) => api.put<LandingInput>('/api/admin/landing', input),
    onSuccess: () => invalidate(keys.landing),
  });
}

export function useAdminNewsletter() {
  return useQuery({ queryKey: keys.newsletter, queryFn: () => api.get<AdminNewsletter>('/api/admin/newsletter') });
}

export function useSaveNewsletter() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (image: string) => api.put<AdminNewsletter>('/api/admin/newsletter', { image }),
    onSuccess: () => invalidate(keys.newsletter),
  });
}

// ---------- outbox ----------

/** The mails kept in the database when no SMTP server is configured, newest first. */
export function useOutbox(to: string) {
  const params = new URLSearchParams({ limit: '50', ...(to ? { to } : {}) });
  return useQuery({
    queryKey: ['admin', 'outbox', to],
    queryFn: () => api.get<{ mails: OutboxMail[] }>(`/api/admin/outbox?${params}`).then((body) => body.mails),
    refetchInterval: 10_000,
  });
}

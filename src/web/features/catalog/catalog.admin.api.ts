import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  AdminProcedure,
  AdminProcedureListQuery,
  AdminProcedurePage,
  ProcedureInput,
} from '#shared/catalog/procedures.admin.schemas.ts';
import type { AdminTag, adminTagListSchema, TagInput } from '#shared/catalog/tags.admin.schemas.ts';
import type { okSchema } from '#shared/records.schemas.ts';
import { useRefreshQueries } from '#web/components/console/console-cache.ts';
import { landingKeys } from '#web/features/landing/landing.api.ts';
import { api, queryString } from '#web/lib/api-client.ts';
import { catalogKeys } from './catalog.api.ts';

// The console's procedures and tags, apart from catalog.api.ts: the procedure page's loader puts that module on every
// guest page, and these calls (with the console's cache refresh) have no business there.

const adminProcedurePath = (id: string) => `/api/admin/procedures/${encodeURIComponent(id)}`;
const adminTagPath = (id: string) => `/api/admin/tags/${encodeURIComponent(id)}`;
type Ok = z.infer<typeof okSchema>;

const catalogAdminApi = {
  list: (query: AdminProcedureListQuery, signal?: AbortSignal) =>
    api.get<AdminProcedurePage>(`/api/admin/procedures${queryString(query)}`, { signal }),
  get: (id: string, signal?: AbortSignal) => api.get<AdminProcedure>(adminProcedurePath(id), { signal }),
  save: (id: string, input: ProcedureInput) => api.put<AdminProcedure>(adminProcedurePath(id), input),
  remove: (id: string) => api.delete<Ok>(adminProcedurePath(id)),
  tags: (signal?: AbortSignal) => api.get<z.infer<typeof adminTagListSchema>>('/api/admin/tags', { signal }),
  tag: (id: string, signal?: AbortSignal) => api.get<AdminTag>(adminTagPath(id), { signal }),
  saveTag: (id: string, input: TagInput) => api.put<AdminTag>(adminTagPath(id), input),
  removeTag: (id: string) => api.delete<Ok>(adminTagPath(id)),
};

/** The procedures list as the console opens it: the newest first (its route loads it beside its code). */
export const firstProceduresPage = {
  sort: 'createdAt',
  dir: 'desc',
  page: 1,
} as const satisfies AdminProcedureListQuery;

export const adminProceduresQuery = (query: AdminProcedureListQuery) =>
  queryOptions({
    queryKey: catalogKeys.adminList(query),
    queryFn: ({ signal }) => catalogAdminApi.list(query, signal),
  });

export function useAdminProcedures(query: AdminProcedureListQuery) {
  return useQuery({ ...adminProceduresQuery(query), placeholderData: keepPreviousData });
}

/** One procedure as its form edits it (the console's route loads it beside the form's code). */
export const adminProcedureQuery = (id: string) =>
  queryOptions({ queryKey: catalogKeys.adminDetail(id), queryFn: ({ signal }) => catalogAdminApi.get(id, signal) });

export function useAdminProcedure(id: string, enabled: boolean) {
  return useQuery({ ...adminProcedureQuery(id), enabled });
}

export function useSaveProcedure(id: string) {
  const refresh = useRefreshQueries();
  return useMutation({
    mutationFn: (input: ProcedureInput) => catalogAdminApi.save(id, input),
    onSuccess: () => refresh([catalogKeys.all, landingKeys.all]),
  });
}

export function useDeleteProcedure(id: string) {
  const refresh = useRefreshQueries();
  return useMutation({
    mutationFn: () => catalogAdminApi.remove(id),
    onSuccess: () => refresh([catalogKeys.all, landingKeys.all], catalogKeys.adminDetail(id)),
  });
}

export const adminTagsQuery = queryOptions({
  queryKey: catalogKeys.tags(),
  queryFn: ({ signal }) => catalogAdminApi.tags(signal).then((body) => body.items),
});

export function useAdminTags() {
  return useQuery(adminTagsQuery);
}

/** One tag as its form edits it (the console's route loads it beside the form's code). */
export const adminTagQuery = (id: string) =>
  queryOptions({ queryKey: catalogKeys.tag(id), queryFn: ({ signal }) => catalogAdminApi.tag(id, signal) });

export function useAdminTag(id: string, enabled: boolean) {
  return useQuery({ ...adminTagQuery(id), enabled });
}

export function useSaveTag(id: string) {
  const refresh = useRefreshQueries();
  return useMutation({
    mutationFn: (input: TagInput) => catalogAdminApi.saveTag(id, input),
    onSuccess: () => refresh([catalogKeys.all, landingKeys.all]),
  });
}

export function useDeleteTag(id: string) {
  const refresh = useRefreshQueries();
  return useMutation({
    mutationFn: () => catalogAdminApi.removeTag(id),
    onSuccess: () => refresh([catalogKeys.all, landingKeys.all], catalogKeys.tag(id)),
  });
}

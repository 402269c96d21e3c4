import { keepPreviousData, queryOptions, useMutation, useQuery, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AdminProcedure, AdminProcedureListQuery, AdminProcedurePage, ProcedureInput } from '#shared/catalog/procedures.admin.schemas.ts';
import type { AdminTag, adminTagListSchema, TagInput } from '#shared/catalog/tags.admin.schemas.ts';
import type { okSchema } from '#shared/records.schemas.ts';
import type { CatalogFilters, CatalogPage, ProcedureDetail } from '#shared/catalog/catalog.schemas.ts';
import { useRefreshQueries } from '#web/features/admin/console-cache.ts';
import { landingKeys } from '#web/features/landing/landing.api.ts';
import { api, queryString } from '#web/lib/api-client.ts';
import { preloadImage } from '#web/lib/preload-image.ts';
import { apiQueryString, type CatalogApiQuery } from '#shared/catalog/catalog-url.ts';

/** Procedures and tags, public and console side: everything under ['catalog'], so one prefix refreshes it all (the landing shows procedures too). */
export const catalogKeys = {
  all: ['catalog'] as const,
  lists: () => [...catalogKeys.all, 'list'] as const,
  list: (query: CatalogApiQuery) => [...catalogKeys.lists(), query] as const,
  filters: () => [...catalogKeys.all, 'filters'] as const,
  detail: (id: string) => [...catalogKeys.all, 'detail', id] as const,
  adminList: (query: AdminProcedureListQuery) => [...catalogKeys.all, 'admin', 'list', query] as const,
  adminDetail: (id: string) => [...catalogKeys.all, 'admin', 'detail', id] as const,
  tags: () => [...catalogKeys.all, 'tags'] as const,
  tag: (id: string) => [...catalogKeys.tags(), id] as const,
};

const procedurePath = (id: string) => `/api/catalog/procedures/${encodeURIComponent(id)}`;
const adminProcedurePath = (id: string) => `/api/admin/procedures/${encodeURIComponent(id)}`;
const adminTagPath = (id: string) => `/api/admin/tags/${encodeURIComponent(id)}`;
type Ok = z.infer<typeof okSchema>;

const catalogApi = {
  page: (query: CatalogApiQuery, signal?: AbortSignal) => api.get<CatalogPage>(`/api/catalog/procedures?${apiQueryString(query)}`, { signal }),
  filters: (signal?: AbortSignal) => api.get<CatalogFilters>('/api/catalog/filters', { signal }),
  procedure: (id: string, signal?: AbortSignal) => api.get<ProcedureDetail>(procedurePath(id), { signal }),
  guideClick: (id: string) => api.post<void>(`${procedurePath(id)}/guide-clicks`),
  adminList: (query: AdminProcedureListQuery, signal?: AbortSignal) =>
    api.get<AdminProcedurePage>(`/api/admin/procedures${queryString(query)}`, { signal }),
  adminGet: (id: string, signal?: AbortSignal) => api.get<AdminProcedure>(adminProcedurePath(id), { signal }),
  adminSave: (id: string, input: ProcedureInput) => api.put<AdminProcedure>(adminProcedurePath(id), input),
  adminRemove: (id: string) => api.delete<Ok>(adminProcedurePath(id)),
  tags: (signal?: AbortSignal) => api.get<z.infer<typeof adminTagListSchema>>('/api/admin/tags', { signal }),
  tag: (id: string, signal?: AbortSignal) => api.get<AdminTag>(adminTagPath(id), { signal }),
  saveTag: (id: string, input: TagInput) => api.put<AdminTag>(adminTagPath(id), input),
  removeTag: (id: string) => api.delete<Ok>(adminTagPath(id)),
};

export function useCatalogPage(query: CatalogApiQuery) {
  return useQuery({
    queryKey: catalogKeys.list(query),
    queryFn: ({ signal }) => catalogApi.page(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useCatalogFilters() {
  return useQuery({ queryKey: catalogKeys.filters(), queryFn: ({ signal }) => catalogApi.filters(signal), staleTime: 5 * 60_000 });
}

export const procedureQuery = (id: string) =>
  queryOptions({
    queryKey: catalogKeys.detail(id),
    queryFn: ({ signal }) => catalogApi.procedure(id, signal),
    // A 404 will not change on a retry.
    retry: (count, error) => count < 2 && (error as { status?: number }).status !== 404,
  });

/**
 * The procedure page's route loader: the detail loads beside the page's code, and the poster (the page's
 * largest paint) is requested as soon as the detail names it, before React renders it (issue #13).
 */
export async function loadProcedure(queryClient: QueryClient, id: string): Promise<null> {
  await queryClient.prefetchQuery(procedureQuery(id));
  const detail = queryClient.getQueryData(procedureQuery(id).queryKey);
  if (detail?.videoUrl && detail.previewUrl) preloadImage(detail.previewUrl);
  return null;
}

/** Records a FASCICULOS click; the download itself is a plain link. */
export function useGuideClick(id: string) {
  return useMutation({ mutationFn: () => catalogApi.guideClick(id) });
}

// ---------- console ----------

export function useAdminProcedures(query: AdminProcedureListQuery) {
  return useQuery({
    queryKey: catalogKeys.adminList(query),
    queryFn: ({ signal }) => catalogApi.adminList(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useAdminProcedure(id: string, enabled: boolean) {
  return useQuery({ queryKey: catalogKeys.adminDetail(id), queryFn: ({ signal }) => catalogApi.adminGet(id, signal), enabled });
}

export function useSaveProcedure(id: string) {
  const refresh = useRefreshQueries();
  return useMutation({ mutationFn: (input: ProcedureInput) => catalogApi.adminSave(id, input), onSuccess: () => refresh([catalogKeys.all, landingKeys.all]) });
}

export function useDeleteProcedure(id: string) {
  const refresh = useRefreshQueries();
  return useMutation({ mutationFn: () => catalogApi.adminRemove(id), onSuccess: () => refresh([catalogKeys.all, landingKeys.all], catalogKeys.adminDetail(id)) });
}

export function useAdminTags() {
  return useQuery({ queryKey: catalogKeys.tags(), queryFn: ({ signal }) => catalogApi.tags(signal).then((body) => body.items) });
}

export function useAdminTag(id: string, enabled: boolean) {
  return useQuery({ queryKey: catalogKeys.tag(id), queryFn: ({ signal }) => catalogApi.tag(id, signal), enabled });
}

export function useSaveTag(id: string) {
  const refresh = useRefreshQueries();
  return useMutation({ mutationFn: (input: TagInput) => catalogApi.saveTag(id, input), onSuccess: () => refresh([catalogKeys.all, landingKeys.all]) });
}

export function useDeleteTag(id: string) {
  const refresh = useRefreshQueries();
  return useMutation({ mutationFn: () => catalogApi.removeTag(id), onSuccess: () => refresh([catalogKeys.all, landingKeys.all], catalogKeys.tag(id)) });
}

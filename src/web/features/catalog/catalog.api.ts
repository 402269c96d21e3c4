import { keepPreviousData, queryOptions, useMutation, useQuery, type QueryClient } from '@tanstack/react-query';
import type { AdminProcedureListQuery } from '#shared/catalog/procedures.admin.schemas.ts';
import type { CatalogFilters, CatalogPage, ProcedureDetail } from '#shared/catalog/catalog.schemas.ts';
import { api } from '#web/lib/api-client.ts';
import { preloadImage } from '#web/lib/preload-image.ts';
import { apiQueryString, parseCatalogView, toApiQuery, type CatalogApiQuery } from '#shared/catalog/catalog-url.ts';

/**
 * Procedures and tags, public and console side (catalog.admin.api.ts): everything under ['catalog'], so one prefix
 * refreshes it all (the landing shows procedures too).
 */
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

/** The public side; the console's calls are in catalog.admin.api.ts, off the guest pages. */
const catalogApi = {
  page: (query: CatalogApiQuery, signal?: AbortSignal) =>
    api.get<CatalogPage>(`/api/catalog/procedures?${apiQueryString(query)}`, { signal }),
  filters: (signal?: AbortSignal) => api.get<CatalogFilters>('/api/catalog/filters', { signal }),
  procedure: (id: string, signal?: AbortSignal) => api.get<ProcedureDetail>(procedurePath(id), { signal }),
  guideClick: (id: string) => api.post<void>(`${procedurePath(id)}/guide-clicks`),
};

export const catalogPageQuery = (query: CatalogApiQuery) =>
  queryOptions({ queryKey: catalogKeys.list(query), queryFn: ({ signal }) => catalogApi.page(query, signal) });

const catalogFiltersQuery = queryOptions({
  queryKey: catalogKeys.filters(),
  queryFn: ({ signal }) => catalogApi.filters(signal),
  staleTime: 5 * 60_000,
});

export function useCatalogPage(query: CatalogApiQuery) {
  return useQuery({ ...catalogPageQuery(query), placeholderData: keepPreviousData });
}

export function useCatalogFilters() {
  return useQuery(catalogFiltersQuery);
}

/**
 * The catalogue's route loader: its page of results and the filters' lists load beside the screen's code (the
 * HTML already asked for both), so the page renders once, complete: not once per answer, each render one long task
 * on a phone's main thread. A failed answer is left to the screen, which shows its own message.
 */
export async function loadCatalog(
  queryClient: QueryClient,
  params: { type?: string; filter?: string },
  url: URL,
): Promise<null> {
  const view = parseCatalogView(params, url.searchParams);
  if (!view) return null;
  await Promise.all([
    queryClient.ensureQueryData(catalogPageQuery(toApiQuery(view))).catch(() => null),
    queryClient.ensureQueryData(catalogFiltersQuery).catch(() => null),
  ]);
  return null;
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
 * largest paint) is requested as soon as the detail names it, before React renders it.
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

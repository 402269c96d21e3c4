import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { CatalogFilters, CatalogPage, ProcedureDetail } from '#shared/catalog/catalog.schemas.ts';
import { api } from '#web/lib/api-client.ts';
import { apiQueryString, type CatalogApiQuery } from './catalog-url.ts';

export const catalogKeys = {
  all: ['catalog'] as const,
  page: (query: CatalogApiQuery) => ['catalog', 'procedures', query] as const,
  filters: ['catalog', 'filters'] as const,
  procedure: (id: string) => ['catalog', 'procedure', id] as const,
};

export function useCatalogPage(query: CatalogApiQuery) {
  return useQuery({
    queryKey: catalogKeys.page(query),
    queryFn: ({ signal }) =>
      api.get<CatalogPage>(`/api/catalog/procedures?${apiQueryString(query)}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useCatalogFilters() {
  return useQuery({
    queryKey: catalogKeys.filters,
    queryFn: ({ signal }) => api.get<CatalogFilters>('/api/catalog/filters', { signal }),
    staleTime: 5 * 60_000,
  });
}

export const procedureQuery = (id: string) =>
  queryOptions({
    queryKey: catalogKeys.procedure(id),
    queryFn: ({ signal }) =>
      api.get<ProcedureDetail>(`/api/catalog/procedures/${encodeURIComponent(id)}`, { signal }),
    // A 404 will not change on a retry.
    retry: (count, error) => count < 2 && (error as { status?: number }).status !== 404,
  });

/** Records a FASCICULOS click; the download itself is a plain link. */
export function useGuideClick(id: string) {
  return useMutation({
    mutationFn: () => api.post<void>(`/api/catalog/procedures/${encodeURIComponent(id)}/guide-clicks`),
  });
}

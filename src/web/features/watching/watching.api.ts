import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProcedureCard } from '#shared/catalog/catalog.schemas.ts';
import type { ContinueWatching, ProcedureProgress, SavePosition } from '#shared/watching/watching.schemas.ts';
import { catalogKeys } from '#web/features/catalog/catalog.api.ts';
import { api } from '#web/lib/api-client.ts';

export const watchingKeys = {
  all: ['watching'] as const,
  procedure: (id: string) => [...watchingKeys.all, 'procedure', id] as const,
  continue: () => [...watchingKeys.all, 'continue'] as const,
  favorites: () => [...watchingKeys.all, 'favorites'] as const,
};

const procedurePath = (id: string) => `/api/watching/procedures/${encodeURIComponent(id)}`;
const favoritePath = (id: string) => `/api/favorites/${encodeURIComponent(id)}`;

export const watchingApi = {
  progress: (id: string, signal?: AbortSignal) => api.get<ProcedureProgress>(procedurePath(id), { signal }),
  /** keepalive: the save still goes out when the page is being left. */
  savePosition: (id: string, input: SavePosition) =>
    api.post<void>(`${procedurePath(id)}/position`, input, { keepalive: true }),
  positionUrl: (id: string) => `${procedurePath(id)}/position`,
  continueWatching: (signal?: AbortSignal) => api.get<ContinueWatching>('/api/watching/continue', { signal }),
  favorites: (signal?: AbortSignal) => api.get<ProcedureCard[]>('/api/favorites', { signal }),
  setFavorite: (id: string, favorite: boolean) =>
    favorite ? api.put<void>(favoritePath(id)) : api.delete<void>(favoritePath(id)),
};

/** The member's place in a procedure and whether it is a favourite (null query for guests). */
export function useProcedureProgress(id: string, enabled: boolean) {
  return useQuery({
    queryKey: watchingKeys.procedure(id),
    queryFn: ({ signal }) => watchingApi.progress(id, signal),
    enabled,
    staleTime: 0,
  });
}

export const continueWatchingQuery = queryOptions({
  queryKey: watchingKeys.continue(),
  queryFn: ({ signal }) => watchingApi.continueWatching(signal),
});

export const favoritesQuery = queryOptions({
  queryKey: watchingKeys.favorites(),
  queryFn: ({ signal }) => watchingApi.favorites(signal),
});

export function useContinueWatching() {
  return useQuery(continueWatchingQuery);
}

export function useFavorites() {
  return useQuery(favoritesQuery);
}

/** Adds or removes a favourite; cards and lists that show the heart refresh afterwards. */
export function useSetFavorite(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (favorite: boolean) => watchingApi.setFavorite(id, favorite),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: watchingKeys.all }),
        queryClient.invalidateQueries({ queryKey: catalogKeys.lists() }),
      ]),
  });
}

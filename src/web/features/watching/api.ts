import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProcedureCard } from '#shared/catalog/catalog.schemas.ts';
import type { ContinueWatching, ProcedureProgress } from '#shared/watching/watching.schemas.ts';
import { api } from '#web/lib/api-client.ts';

export const watchingKeys = {
  all: ['watching'] as const,
  procedure: (id: string) => ['watching', 'procedure', id] as const,
  continue: ['watching', 'continue'] as const,
  favorites: ['watching', 'favorites'] as const,
};

/** The member's place in a procedure and whether it is a favourite (null query for guests). */
export function useProcedureProgress(id: string, enabled: boolean) {
  return useQuery({
    queryKey: watchingKeys.procedure(id),
    queryFn: ({ signal }) => api.get<ProcedureProgress>(`/api/watching/procedures/${encodeURIComponent(id)}`, { signal }),
    enabled,
    staleTime: 0,
  });
}

export function useContinueWatching() {
  return useQuery({
    queryKey: watchingKeys.continue,
    queryFn: ({ signal }) => api.get<ContinueWatching>('/api/watching/continue', { signal }),
  });
}

export function useFavorites() {
  return useQuery({
    queryKey: watchingKeys.favorites,
    queryFn: ({ signal }) => api.get<ProcedureCard[]>('/api/favorites', { signal }),
  });
}

/** Adds or removes a favourite; cards and lists that show the heart refresh afterwards. */
export function useSetFavorite(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (favorite: boolean) =>
      favorite
        ? api.put<void>(`/api/favorites/${encodeURIComponent(id)}`)
        : api.delete<void>(`/api/favorites/${encodeURIComponent(id)}`),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: watchingKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['catalog', 'procedures'] }),
      ]),
  });
}

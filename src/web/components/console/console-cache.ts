import { useQueryClient, type QueryKey } from '@tanstack/react-query';

const startsWith = (key: QueryKey, prefix: QueryKey) => prefix.every((part, index) => key[index] === part);

/**
 * Refreshes every query under the given key prefixes after a change. A deleted record's own query is
 * left alone: refetching it while its form is still on screen answers 404.
 */
export function useRefreshQueries() {
  const queryClient = useQueryClient();
  return (prefixes: QueryKey[], deleted?: QueryKey) =>
    Promise.all(
      prefixes.map((queryKey) =>
        queryClient.invalidateQueries({
          queryKey,
          predicate: (query) => !deleted || !startsWith(query.queryKey, deleted),
        }),
      ),
    );
}

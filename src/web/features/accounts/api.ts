import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { CurrentUser, LoginInput, MeResponse } from '#shared/accounts/accounts.schemas.ts';
import { useNavigate } from 'react-router';
import { api } from '#web/lib/api-client.ts';
import { paths } from '#web/paths.ts';

export const currentUserQueryKey = ['current-user'] as const;

async function fetchCurrentUser(): Promise<CurrentUser | null> {
  try {
    const body = await api.get<MeResponse>('/api/me');
    return body?.user ?? null;
  } catch {
    // The spec: a failed user load yields a guest.
    return null;
  }
}

export const currentUserQuery = () =>
  queryOptions({
    queryKey: currentUserQueryKey,
    queryFn: fetchCurrentUser,
    staleTime: 5 * 60_000,
    retry: false,
  });

/** The logged-in user, or null for a guest; used by route loaders before rendering. */
export function loadCurrentUser(queryClient: QueryClient): Promise<CurrentUser | null> {
  return queryClient.ensureQueryData({ ...currentUserQuery(), revalidateIfStale: true });
}

export function useCurrentUser() {
  const query = useQuery(currentUserQuery());
  return { user: query.data ?? null, isPending: query.isPending };
}

/** Logs in and resolves with the user the server now sees for this session. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: LoginInput) => {
      await api.post<unknown>('/api/account/login', input);
      await queryClient.invalidateQueries({ queryKey: currentUserQueryKey, refetchType: 'none' });
      return queryClient.fetchQuery(currentUserQuery());
    },
  });
}

/** Ends the session, then leaves the current page before forgetting the user. */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => api.post<void>('/api/account/logout'),
    onSuccess: async () => {
      await navigate(paths.home);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== currentUserQueryKey[0] });
      queryClient.setQueryData(currentUserQueryKey, null);
    },
  });
}

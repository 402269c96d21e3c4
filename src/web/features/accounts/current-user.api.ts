import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { CurrentUser, MeResponse } from '#shared/accounts/accounts.schemas.ts';
import { api } from '#web/lib/api-client.ts';
import { paths } from '#web/paths.ts';

// Who is signed in, for every page's layout and loaders; the account's other requests are in accounts.api.ts, off a
// guest's first page.

/** The signed-in member's own account: who they are, their profile, payments and devices. */
export const accountKeys = {
  all: ['account'] as const,
  me: () => [...accountKeys.all, 'me'] as const,
  profile: () => [...accountKeys.all, 'profile'] as const,
  paymentHistory: () => [...accountKeys.all, 'payments'] as const,
  sessions: () => [...accountKeys.all, 'sessions'] as const,
  universities: (q: string) => ['universities', q] as const,
  resetCode: (code: string) => ['password-reset', code] as const,
};

async function fetchCurrentUser(): Promise<CurrentUser | null> {
  try {
    const body = await api.get<MeResponse>('/api/me');
    return body?.user ?? null;
  } catch {
    // The spec: a failed user load yields a guest.
    return null;
  }
}

const currentUserQuery = () =>
  queryOptions({
    queryKey: accountKeys.me(),
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

/** After the session ends: nothing of the member stays in the cache, and the browser is a guest. */
export function forgetMember(queryClient: QueryClient) {
  const meHash = JSON.stringify(accountKeys.me());
  queryClient.removeQueries({ predicate: (query) => JSON.stringify(query.queryKey) !== meHash });
  queryClient.setQueryData(accountKeys.me(), null);
}

/** Refetches what a membership or profile change affects. */
export function useRefreshAccount() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: accountKeys.all });
}

/** Ends the session, then leaves the current page before forgetting the user. */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => api.post<void>('/api/account/logout'),
    onSuccess: async () => {
      await navigate(paths.home);
      forgetMember(queryClient);
    },
  });
}

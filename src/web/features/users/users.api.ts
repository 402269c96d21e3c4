import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  manualPremiumDowngradeSchema,
  manualPremiumListSchema,
  manualPremiumUpgradeSchema,
  userPickSchema,
} from '#shared/membership/manual-premium.schemas.ts';
import type {
  AdminUser,
  AdminUserInput,
  AdminUsersQuery,
  adminUsersPageSchema,
} from '#shared/accounts/users.admin.schemas.ts';
import { useRefreshQueries } from '#web/components/console/console-cache.ts';
import { analyticsKeys } from '#web/features/analytics/analytics.api.ts';
import { api, downloadFile, queryString } from '#web/lib/api-client.ts';

/** The people console: users and their manual Premium, all under ['users']. */
const userKeys = {
  all: ['users'] as const,
  list: (query: AdminUsersQuery) => [...userKeys.all, 'list', query] as const,
  detail: (id: string) => [...userKeys.all, 'detail', id] as const,
  manualPremium: () => [...userKeys.all, 'manual-premium'] as const,
  manualPremiumCandidates: (q: string) => [...userKeys.manualPremium(), 'candidates', q] as const,
};

const userPath = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`;

export const usersApi = {
  list: (query: AdminUsersQuery, signal?: AbortSignal) =>
    api.get<z.infer<typeof adminUsersPageSchema>>(`/api/admin/users${queryString(query)}`, { signal }),
  get: (id: string, signal?: AbortSignal) => api.get<AdminUser>(userPath(id), { signal }),
  create: (input: AdminUserInput) => api.post<AdminUser>('/api/admin/users', input),
  update: (id: string, input: AdminUserInput) => api.put<AdminUser>(userPath(id), input),
  remove: (id: string) => api.delete<unknown>(userPath(id)),
  /** The server names the file Usuarios-{date}.xlsx. */
  downloadReport: () =>
    downloadFile('/api/admin/users/report.xlsx', `Usuarios-${new Date().toISOString().slice(0, 10)}.xlsx`),
  manualPremium: (signal?: AbortSignal) =>
    api.get<z.infer<typeof manualPremiumListSchema>>('/api/admin/manual-premium', { signal }),
  manualPremiumCandidates: (q: string, signal?: AbortSignal) =>
    api.get<z.infer<typeof userPickSchema>>(`/api/admin/manual-premium/candidates${queryString({ q })}`, { signal }),
  upgrade: (input: z.input<typeof manualPremiumUpgradeSchema>) =>
    api.post<unknown>('/api/admin/manual-premium/upgrade', input),
  downgrade: (input: z.input<typeof manualPremiumDowngradeSchema>) =>
    api.post<unknown>('/api/admin/manual-premium/downgrade', input),
};

/** A change to a user shows in the lists, the manual Premium pages and the statistics. */
export function useRefreshPeople(deletedId?: string) {
  const refresh = useRefreshQueries();
  return () =>
    refresh([userKeys.all, analyticsKeys.all], deletedId === undefined ? undefined : userKeys.detail(deletedId));
}

/** The users list as the console opens it: every account, the newest first (its route loads it beside its code). */
export const firstUsersPage = {
  sort: 'createdAt',
  dir: 'desc',
  page: 1,
  manualOnly: false,
} as const satisfies AdminUsersQuery;

export const adminUsersQuery = (query: AdminUsersQuery) =>
  queryOptions({ queryKey: userKeys.list(query), queryFn: ({ signal }) => usersApi.list(query, signal) });

export function useAdminUsers(query: AdminUsersQuery) {
  return useQuery({ ...adminUsersQuery(query), placeholderData: keepPreviousData });
}

/** One user as the console's form edits it (its route loads it beside the form's code). */
export const adminUserQuery = (id: string) =>
  queryOptions({ queryKey: userKeys.detail(id), queryFn: ({ signal }) => usersApi.get(id, signal) });

export function useAdminUser(id: string | undefined) {
  return useQuery({ ...adminUserQuery(id ?? ''), enabled: Boolean(id) });
}

/** Creates (no id) or edits a user. */
export function useSaveAdminUser(id: string | undefined) {
  const refresh = useRefreshPeople();
  return useMutation({
    mutationFn: (input: AdminUserInput) => (id ? usersApi.update(id, input) : usersApi.create(input)),
    onSuccess: refresh,
  });
}

export function useDeleteAdminUser(id: string | undefined) {
  const refresh = useRefreshPeople(id);
  return useMutation({ mutationFn: () => usersApi.remove(id ?? ''), onSuccess: refresh });
}

export function useManualPremiumUsers() {
  return useQuery({
    queryKey: userKeys.manualPremium(),
    queryFn: ({ signal }) => usersApi.manualPremium(signal).then((body) => body.users),
  });
}

/** Free users whose e-mail contains the text, for the upgrade picker. */
export const manualPremiumCandidatesQuery = (query: string) =>
  queryOptions({
    queryKey: userKeys.manualPremiumCandidates(query),
    queryFn: ({ signal }) => usersApi.manualPremiumCandidates(query, signal).then((body) => body.users),
  });

export function useManualPremiumUpgrade() {
  const refresh = useRefreshPeople();
  return useMutation({ mutationFn: usersApi.upgrade, onSuccess: refresh });
}

export function useManualPremiumDowngrade() {
  const refresh = useRefreshPeople();
  return useMutation({ mutationFn: usersApi.downgrade, onSuccess: refresh });
}

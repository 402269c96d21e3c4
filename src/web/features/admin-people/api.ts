import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BulkMailInput } from '#shared/mailing/mailing.schemas.ts';
import type { ManualPremiumPeriod, ManualPremiumRow } from '#shared/membership/manual-premium.schemas.ts';
import type { Statistics } from '#shared/analytics/statistics.schemas.ts';
import type { AdminUser, AdminUserInput, AdminUserRow } from '#shared/accounts/users.admin.schemas.ts';
import type { AnalyticsCategory } from '#shared/analytics/analytics.rules.ts';
import { api } from '#web/lib/api-client.ts';

const keys = {
  users: ['admin', 'users'] as const,
  manualPremium: ['admin', 'manual-premium'] as const,
  statistics: ['admin', 'statistics'] as const,
};

export type AdminUsersListQuery = {
  q?: string;
  sort: 'name' | 'email' | 'phoneNumber' | 'type' | 'createdAt';
  dir: 'asc' | 'desc';
  page: number;
  manualOnly: boolean;
};

type UsersPage = { items: AdminUserRow[]; total: number; page: number; pageSize: number };
type PickableUser = { id: string; name: string; email: string };

/** Where the users spreadsheet is downloaded from (the server names it Usuarios-{date}.xlsx). */
export const usersReportUrl = '/api/admin/users/report.xlsx';

export function useAdminUsers(query: AdminUsersListQuery) {
  const params = new URLSearchParams({ sort: query.sort, dir: query.dir, page: String(query.page) });
  if (query.q) params.set('q', query.q);
  if (query.manualOnly) params.set('manualOnly', 'true');
  return useQuery({
    queryKey: [...keys.users, 'list', query],
    queryFn: ({ signal }) => api.get<UsersPage>(`/api/admin/users?${params}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useAdminUser(id: string | undefined) {
  return useQuery({
    queryKey: [...keys.users, id],
    queryFn: ({ signal }) => api.get<AdminUser>(`/api/admin/users/${encodeURIComponent(id ?? '')}`, { signal }),
    enabled: Boolean(id),
  });
}

/** Refreshes every people query; a deleted user's own query is left alone, so it is not fetched again (404). */
function useInvalidatePeople(deletedId?: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [keys.users, keys.manualPremium, keys.statistics].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey, predicate: (query) => !deletedId || query.queryKey[2] !== deletedId }),
      ),
    );
}

/** Creates (no id) or edits a user. */
export function useSaveAdminUser(id: string | undefined) {
  const invalidate = useInvalidatePeople();
  return useMutation({
    mutationFn: (input: AdminUserInput) =>
      id ? api.put<AdminUser>(`/api/admin/users/${encodeURIComponent(id)}`, input) : api.post<AdminUser>('/api/admin/users', input),
    onSuccess: invalidate,
  });
}

export function useDeleteAdminUser(id: string | undefined) {
  const invalidate = useInvalidatePeople(id);
  return useMutation({
    mutationFn: () => api.delete<unknown>(`/api/admin/users/${encodeURIComponent(id ?? '')}`),
    onSuccess: invalidate,
  });
}

export function useManualPremiumUsers() {
  return useQuery({
    queryKey: keys.manualPremium,
    queryFn: ({ signal }) => api.get<{ users: ManualPremiumRow[] }>('/api/admin/manual-premium', { signal }).then((body) => body.users),
  });
}

/** Free users whose e-mail contains the text, for the upgrade picker. */
export function useManualPremiumCandidates(query: string) {
  return useQuery({
    queryKey: [...keys.manualPremium, 'candidates', query],
    queryFn: ({ signal }) =>
      api
        .get<{ users: PickableUser[] }>(`/api/admin/manual-premium/candidates?q=${encodeURIComponent(query)}`, { signal })
        .then((body) => body.users),
    placeholderData: (previous) => previous,
  });
}

export function useManualPremiumUpgrade() {
  const invalidate = useInvalidatePeople();
  return useMutation({
    mutationFn: (input: { userId: string; period: ManualPremiumPeriod }) => api.post<unknown>('/api/admin/manual-premium/upgrade', input),
    onSuccess: invalidate,
  });
}

export function useManualPremiumDowngrade() {
  const invalidate = useInvalidatePeople();
  return useMutation({
    mutationFn: (input: { userId: string }) => api.post<unknown>('/api/admin/manual-premium/downgrade', input),
    onSuccess: invalidate,
  });
}

export type StatisticsFilter = { from?: string; to?: string; category?: AnalyticsCategory };

export function useAdminStatistics(filter: StatisticsFilter) {
  const params = new URLSearchParams();
  if (filter.from) params.set('from', filter.from);
  if (filter.to) params.set('to', filter.to);
  if (filter.category) params.set('category', filter.category);
  return useQuery({
    queryKey: [...keys.statistics, filter],
    queryFn: ({ signal }) => api.get<Statistics>(`/api/admin/statistics?${params}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useSendBulkMail() {
  return useMutation({
    mutationFn: (input: BulkMailInput) => api.post<{ id: string; recipients: number }>('/api/admin/mailing', input),
  });
}

import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  AdminOrganization,
  adminOrganizationListSchema,
  OrganizationInput,
} from '#shared/organizations/organizations.admin.schemas.ts';
import { useRefreshQueries } from '#web/components/console/console-cache.ts';
import { landingKeys } from '#web/features/landing/landing.api.ts';
import { api } from '#web/lib/api-client.ts';

const organizationKeys = {
  all: ['organizations'] as const,
  list: () => [...organizationKeys.all, 'list'] as const,
  detail: (id: string) => [...organizationKeys.all, 'detail', id] as const,
};

const adminPath = (id: string) => `/api/admin/organizations/${encodeURIComponent(id)}`;

const organizationsApi = {
  list: (signal?: AbortSignal) =>
    api.get<z.infer<typeof adminOrganizationListSchema>>('/api/admin/organizations', { signal }),
  get: (id: string, signal?: AbortSignal) => api.get<AdminOrganization>(adminPath(id), { signal }),
  save: (id: string, input: OrganizationInput) => api.put<AdminOrganization>(adminPath(id), input),
};

export const adminOrganizationsQuery = queryOptions({
  queryKey: organizationKeys.list(),
  queryFn: ({ signal }) => organizationsApi.list(signal).then((body) => body.items),
});

export function useAdminOrganizations() {
  return useQuery(adminOrganizationsQuery);
}

/** One organization as its form edits it (the console's route loads it beside the form's code). */
export const adminOrganizationQuery = (id: string) =>
  queryOptions({ queryKey: organizationKeys.detail(id), queryFn: ({ signal }) => organizationsApi.get(id, signal) });

export function useAdminOrganization(id: string, enabled: boolean) {
  return useQuery({ ...adminOrganizationQuery(id), enabled });
}

export function useSaveOrganization(id: string) {
  const refresh = useRefreshQueries();
  return useMutation({
    mutationFn: (input: OrganizationInput) => organizationsApi.save(id, input),
    onSuccess: () => refresh([organizationKeys.all, landingKeys.all]),
  });
}

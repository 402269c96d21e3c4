import { useMutation, useQuery } from '@tanstack/react-query';
import type { AdminNewsletter, LandingInput } from '#shared/admin-content/admin-content.schemas.ts';
import type { Landing } from '#shared/landing/landing.schemas.ts';
import { useRefreshQueries } from '#web/features/admin/console-cache.ts';
import { api } from '#web/lib/api-client.ts';

/** The home page and the site settings the console edits for it (slides, newsletter image). */
export const landingKeys = {
  all: ['landing'] as const,
  page: () => [...landingKeys.all, 'page'] as const,
  settings: () => [...landingKeys.all, 'settings'] as const,
  newsletter: () => [...landingKeys.all, 'newsletter'] as const,
};

const landingApi = {
  page: (signal?: AbortSignal) => api.get<Landing>('/api/landing', { signal }),
  settings: (signal?: AbortSignal) => api.get<LandingInput>('/api/admin/landing', { signal }),
  saveSettings: (input: LandingInput) => api.put<LandingInput>('/api/admin/landing', input),
  newsletter: (signal?: AbortSignal) => api.get<AdminNewsletter>('/api/admin/newsletter', { signal }),
  saveNewsletter: (image: string) => api.put<AdminNewsletter>('/api/admin/newsletter', { image }),
};

export function useLanding() {
  return useQuery({ queryKey: landingKeys.page(), queryFn: ({ signal }) => landingApi.page(signal) });
}

export function useAdminLanding() {
  return useQuery({ queryKey: landingKeys.settings(), queryFn: ({ signal }) => landingApi.settings(signal) });
}

export function useSaveLanding() {
  const refresh = useRefreshQueries();
  return useMutation({ mutationFn: landingApi.saveSettings, onSuccess: () => refresh([landingKeys.all]) });
}

export function useAdminNewsletter() {
  return useQuery({ queryKey: landingKeys.newsletter(), queryFn: ({ signal }) => landingApi.newsletter(signal) });
}

export function useSaveNewsletter() {
  const refresh = useRefreshQueries();
  return useMutation({ mutationFn: landingApi.saveNewsletter, onSuccess: () => refresh([landingKeys.all]) });
}

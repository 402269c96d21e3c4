import { useMutation, useQuery } from '@tanstack/react-query';
import type { AdminNewsletter, LandingInput } from '#shared/landing/landing.admin.schemas.ts';
import { useRefreshQueries } from '#web/components/console/console-cache.ts';
import { api } from '#web/lib/api-client.ts';
import { landingKeys } from './landing.api.ts';

// The console's side of the home page, apart from landing.api.ts: the home page's loader puts that module on every
// guest page, and these calls (with the console's cache refresh) have no business there.
const landingAdminApi = {
  settings: (signal?: AbortSignal) => api.get<LandingInput>('/api/admin/landing', { signal }),
  saveSettings: (input: LandingInput) => api.put<LandingInput>('/api/admin/landing', input),
  newsletter: (signal?: AbortSignal) => api.get<AdminNewsletter>('/api/admin/newsletter', { signal }),
  saveNewsletter: (image: string) => api.put<AdminNewsletter>('/api/admin/newsletter', { image }),
};

export function useAdminLanding() {
  return useQuery({ queryKey: landingKeys.settings(), queryFn: ({ signal }) => landingAdminApi.settings(signal) });
}

export function useSaveLanding() {
  const refresh = useRefreshQueries();
  return useMutation({ mutationFn: landingAdminApi.saveSettings, onSuccess: () => refresh([landingKeys.all]) });
}

export function useAdminNewsletter() {
  return useQuery({ queryKey: landingKeys.newsletter(), queryFn: ({ signal }) => landingAdminApi.newsletter(signal) });
}

export function useSaveNewsletter() {
  const refresh = useRefreshQueries();
  return useMutation({ mutationFn: landingAdminApi.saveNewsletter, onSuccess: () => refresh([landingKeys.all]) });
}

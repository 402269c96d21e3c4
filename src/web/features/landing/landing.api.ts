import { queryOptions, useMutation, useQuery, type QueryClient } from '@tanstack/react-query';
import type { AdminNewsletter, LandingInput } from '#shared/landing/landing.admin.schemas.ts';
import type { Landing } from '#shared/landing/landing.schemas.ts';
import { useRefreshQueries } from '#web/features/admin/console-cache.ts';
import { api } from '#web/lib/api-client.ts';
import { preloadImage } from '#web/lib/preload-image.ts';

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

const landingQuery = queryOptions({ queryKey: landingKeys.page(), queryFn: ({ signal }) => landingApi.page(signal) });

export function useLanding() {
  return useQuery(landingQuery);
}

/**
 * The home page's route loader: its content loads beside its code, so the page paints once with the hero in
 * place (no placeholder of another height moving the page), and the first slide's picture is requested at
 * high priority before React renders it (issue #13). A failed request leaves the page to show the default hero.
 */
export async function loadLanding(queryClient: QueryClient): Promise<null> {
  const landing = await queryClient.ensureQueryData({ ...landingQuery, revalidateIfStale: true }).catch(() => null);
  const first = landing && landing.slides.length > 1 ? landing.slides[0] : undefined;
  if (first && !first.isVideo) preloadImage(first.mediaUrl);
  return null;
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

import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { Landing } from '#shared/landing/landing.schemas.ts';
import { api } from '#web/lib/api-client.ts';
import { preloadImage } from '#web/lib/preload-image.ts';

/** The home page and the site settings the console edits for it (slides, newsletter image: landing.admin.api.ts). */
export const landingKeys = {
  all: ['landing'] as const,
  page: () => [...landingKeys.all, 'page'] as const,
  settings: () => [...landingKeys.all, 'settings'] as const,
  newsletter: () => [...landingKeys.all, 'newsletter'] as const,
};

// the console's calls are in landing.admin.api.ts, off the guest pages
const landingApi = {
  page: (signal?: AbortSignal) => api.get<Landing>('/api/landing', { signal }),
};

const landingQuery = queryOptions({ queryKey: landingKeys.page(), queryFn: ({ signal }) => landingApi.page(signal) });

export function useLanding() {
  return useQuery(landingQuery);
}

/**
 * The home page's route loader: its content loads beside its code, so the page paints once with the hero in
 * place (no placeholder of another height moving the page), and the first slide's picture is requested at
 * high priority before React renders it. A failed request leaves the page to show the default hero.
 */
export async function loadLanding(queryClient: QueryClient): Promise<null> {
  const landing = await queryClient.ensureQueryData({ ...landingQuery, revalidateIfStale: true }).catch(() => null);
  const first = landing && landing.slides.length > 1 ? landing.slides[0] : undefined;
  if (first && !first.isVideo) preloadImage(first.mediaUrl);
  return null;
}

import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { Landing } from '#shared/landing/landing.schemas.ts';
import { api } from '#web/lib/api-client.ts';

export const landingQuery = queryOptions({
  queryKey: ['landing'],
  queryFn: ({ signal }) => api.get<Landing>('/api/landing', { signal }),
});

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

function preloadImage(href: string) {
  if (document.head.querySelector(`link[rel="preload"][href="${CSS.escape(href)}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  link.href = href;
  link.fetchPriority = 'high';
  document.head.append(link);
}

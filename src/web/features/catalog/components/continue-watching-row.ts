import type { QueryClient } from '@tanstack/react-query';
import { loadCurrentUser } from '#web/features/accounts/current-user.api.ts';
import { preloadableLazy } from '#web/lib/preloadable-lazy.tsx';

const load = () => import('./continue-watching.tsx');

/** 'Seguir viendo' on the home page and the catalogue: members only, so guests never load its code. */
export const ContinueWatchingRow = preloadableLazy(() => load().then((module) => module.default));

/**
 * A member's row, code and data, before the page renders: the page paints with the row in place (or without it)
 * instead of a placeholder that the answer removes or grows, moving everything below it.
 */
export async function loadContinueWatchingRow(queryClient: QueryClient): Promise<void> {
  if (!(await loadCurrentUser(queryClient))) return;
  const [row] = await Promise.all([load(), ContinueWatchingRow.preload()]);
  await row.loadContinueWatching(queryClient);
}

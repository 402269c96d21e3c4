import type { ProgressQuery } from '#shared/progress/progress.schemas.ts';

/** The query string of a progress page or its export: only what is set. */
export function progressSearch(query: Partial<ProgressQuery>): string {
  const params = new URLSearchParams();
  if (query.page && query.page > 1) params.set('page', String(query.page));
  if (query.filter) params.set('filter', query.filter);
  if (query.search) params.set('search', query.search);
  return params.toString();
}

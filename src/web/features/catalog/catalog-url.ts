import { catalogFilterKinds, procedureTypes, species, type CatalogFilterKind } from '#shared/catalog/catalog.rules.ts';

export type CatalogFilter = { kind: CatalogFilterKind; value: string };

/** What a catalogue URL shows: one filter from the path, the search and the page from the query. */
export type CatalogView = { filter: CatalogFilter | null; q: string; page: number };

/** The API's query parameters for a view. */
export type CatalogApiQuery = {
  q?: string;
  species?: string;
  type?: string;
  tag?: string;
  classroom?: string;
  page: number;
};

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const validValue: Record<CatalogFilterKind, (value: string) => boolean> = {
  kynd: (value) => (species as readonly string[]).includes(value),
  type: (value) => (procedureTypes as readonly string[]).includes(value),
  tag: (value) => uuidPattern.test(value),
  aula: (value) => uuidPattern.test(value),
};

const isFilterKind = (value: string): value is CatalogFilterKind =>
  (catalogFilterKinds as readonly string[]).includes(value);

/** Reads a view from the route params and query string; null when the path names no valid filter. */
export function parseCatalogView(
  params: { type?: string; filter?: string },
  search: URLSearchParams,
): CatalogView | null {
  let filter: CatalogFilter | null = null;
  if (params.type !== undefined || params.filter !== undefined) {
    const kind = params.type ?? '';
    const value = params.filter ?? '';
    if (!isFilterKind(kind) || !validValue[kind](value)) return null;
    filter = { kind, value };
  }
  const q = (search.get('q') ?? '').trim().slice(0, 100);
  const pageNumber = Number(search.get('page'));
  const page = Number.isInteger(pageNumber) && pageNumber >= 1 && pageNumber <= 10_000 ? pageNumber : 1;
  return { filter, q, page };
}

/** The link that reproduces a view: /procedimientos[/{type}/{filter}][?q=&page=]. */
export function catalogViewHref(view: CatalogView): string {
  const path = view.filter
    ? `/procedimientos/${view.filter.kind}/${encodeURIComponent(view.filter.value)}`
    : '/procedimientos';
  const search = new URLSearchParams();
  if (view.q) search.set('q', view.q);
  if (view.page > 1) search.set('page', String(view.page));
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

const apiKeyByKind: Record<CatalogFilterKind, 'species' | 'type' | 'tag' | 'classroom'> = {
  kynd: 'species',
  type: 'type',
  tag: 'tag',
  aula: 'classroom',
};

export function toApiQuery(view: CatalogView): CatalogApiQuery {
  const query: CatalogApiQuery = { page: view.page };
  if (view.q) query.q = view.q;
  if (view.filter) query[apiKeyByKind[view.filter.kind]] = view.filter.value;
  return query;
}

export function apiQueryString(query: CatalogApiQuery): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  return search.toString();
}

export const isActiveFilter = (view: CatalogView, kind: CatalogFilterKind, value: string | null) =>
  value === null ? view.filter?.kind !== kind : view.filter?.kind === kind && view.filter.value === value;

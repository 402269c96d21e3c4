import { catalogFilterKinds, procedureTypes, species, type CatalogFilterKind } from '#shared/catalog/catalog.rules.ts';
import { uuidPattern } from '../uuid.ts';

/** At most one value per kind; the kinds combine (species and tag and type and aula). */
type CatalogFilters = Partial<Record<CatalogFilterKind, string>>;

/** What a catalogue URL shows: its filters, the search, the page and a member's 'No vistos' (`?vistos=no`). */
export type CatalogView = { filters: CatalogFilters; q: string; page: number; unwatched?: true };

/** The query parameter of the 'No vistos' filter: signed-in members only, combined with every other filter. */
const unwatchedParam = { name: 'vistos', value: 'no' } as const;

/** The API's query parameters for a view. */
export type CatalogApiQuery = {
  q?: string;
  species?: string;
  type?: string;
  tag?: string;
  classroom?: string;
  unwatched?: '1';
  page: number;
};

const validValue: Record<CatalogFilterKind, (value: string) => boolean> = {
  kynd: (value) => (species as readonly string[]).includes(value),
  type: (value) => (procedureTypes as readonly string[]).includes(value),
  tag: (value) => uuidPattern.test(value),
  aula: (value) => uuidPattern.test(value),
};

const isFilterKind = (value: string): value is CatalogFilterKind =>
  (catalogFilterKinds as readonly string[]).includes(value);

/**
 * Reads a view from the route params and query string; null when the URL names an invalid filter.
 * The spec's path /procedimientos/{type}/{filter} carries one filter; the others ride in the query.
 */
export function parseCatalogView(
  params: { type?: string; filter?: string },
  search: URLSearchParams,
): CatalogView | null {
  const filters: CatalogFilters = {};
  if (params.type !== undefined || params.filter !== undefined) {
    const kind = params.type ?? '';
    const value = params.filter ?? '';
    if (!isFilterKind(kind) || !validValue[kind](value)) return null;
    filters[kind] = value;
  }
  for (const kind of catalogFilterKinds) {
    const value = search.get(kind);
    if (value === null) continue;
    if (!validValue[kind](value) || (filters[kind] !== undefined && filters[kind] !== value)) return null;
    filters[kind] = value;
  }
  const q = (search.get('q') ?? '').trim().slice(0, 100);
  const pageNumber = Number(search.get('page'));
  const page = Number.isInteger(pageNumber) && pageNumber >= 1 && pageNumber <= 10_000 ? pageNumber : 1;
  const view: CatalogView = { filters, q, page };
  if (search.get(unwatchedParam.name) === unwatchedParam.value) view.unwatched = true;
  return view;
}

/** The link that reproduces a view: the first filter in the path (the spec's links), the rest in the query. */
export function catalogViewHref(view: CatalogView): string {
  const chosen = catalogFilterKinds.filter((kind) => view.filters[kind] !== undefined);
  const [first, ...rest] = chosen;
  const path = first ? `/procedimientos/${first}/${encodeURIComponent(view.filters[first]!)}` : '/procedimientos';
  const search = new URLSearchParams();
  for (const kind of rest) search.set(kind, view.filters[kind]!);
  if (view.q) search.set('q', view.q);
  if (view.unwatched) search.set(unwatchedParam.name, unwatchedParam.value);
  if (view.page > 1) search.set('page', String(view.page));
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** The view with one kind set to a value (or cleared with null), back on the first page. */
export function withFilter(view: CatalogView, kind: CatalogFilterKind, value: string | null): CatalogView {
  const filters = { ...view.filters };
  if (value === null) delete filters[kind];
  else filters[kind] = value;
  return { ...withUnwatched(view, view.unwatched === true), filters };
}

/** The view with 'No vistos' on or off, back on the first page. */
export function withUnwatched(view: CatalogView, unwatched: boolean): CatalogView {
  const next: CatalogView = { filters: view.filters, q: view.q, page: 1 };
  if (unwatched) next.unwatched = true;
  return next;
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
  if (view.unwatched) query.unwatched = '1';
  for (const kind of catalogFilterKinds) {
    const value = view.filters[kind];
    if (value !== undefined) query[apiKeyByKind[kind]] = value;
  }
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
  value === null ? view.filters[kind] === undefined : view.filters[kind] === value;

import { describe, expect, it } from 'vitest';
import {
  apiQueryString,
  catalogViewHref,
  isActiveFilter,
  parseCatalogView,
  toApiQuery,
  withFilter,
  withUnwatched,
} from './catalog-url.ts';

const tagId = '3f2b9c1e-8d4a-4e6b-9c7d-1a2b3c4d5e6f';
const search = (text = '') => new URLSearchParams(text);

describe('parseCatalogView', () => {
  it('reads the whole catalogue with no params', () => {
    expect(parseCatalogView({}, search())).toEqual({ filters: {}, q: '', page: 1 });
  });

  it.each([
    ['kynd', 'Otras especies'],
    ['type', 'Premium'],
    ['tag', tagId],
    ['aula', tagId],
  ] as const)('reads a %s filter from the path', (kind, value) => {
    expect(parseCatalogView({ type: kind, filter: value }, search('q=perra&page=2'))).toEqual({
      filters: { [kind]: value },
      q: 'perra',
      page: 2,
    });
  });

  it('combines the path filter with the filters of the query', () => {
    expect(parseCatalogView({ type: 'kynd', filter: 'Gato' }, search(`tag=${tagId}&type=Premium&q=ovario`))).toEqual({
      filters: { kynd: 'Gato', tag: tagId, type: 'Premium' },
      q: 'ovario',
      page: 1,
    });
  });

  it.each([
    ['an unknown kind', 'color', 'Perro'],
    ['an unknown species', 'kynd', 'Caballo'],
    ['an unknown type', 'type', 'Oro'],
    ['a tag that is not an id', 'tag', 'ortopedia'],
  ])('refuses %s', (_case, type, filter) => {
    expect(parseCatalogView({ type, filter }, search())).toBeNull();
  });

  it('refuses an invalid query filter and a query filter that contradicts the path', () => {
    expect(parseCatalogView({}, search('kynd=Caballo'))).toBeNull();
    expect(parseCatalogView({ type: 'kynd', filter: 'Gato' }, search('kynd=Perro'))).toBeNull();
  });

  it.each(['0', '-1', 'dos', '1.5', ''])('falls back to page 1 for page=%j', (page) => {
    expect(parseCatalogView({}, search(`page=${page}`))?.page).toBe(1);
  });
});

describe('catalogViewHref', () => {
  const roundTrip = (href: string) => {
    const url = new URL(href, 'http://x');
    const [, , type, filter] = url.pathname.split('/');
    return parseCatalogView(type ? { type, filter: decodeURIComponent(filter!) } : {}, url.searchParams);
  };

  it('round-trips a view through its link', () => {
    const view = { filters: { kynd: 'Otras especies' }, q: 'cirugía ósea', page: 3 };
    const href = catalogViewHref(view);
    expect(new URL(href, 'http://x').pathname).toBe('/procedimientos/kynd/Otras%20especies');
    expect(roundTrip(href)).toEqual(view);
  });

  it('round-trips every filter together: the first in the path, the rest in the query', () => {
    const view = { filters: { kynd: 'Perro', tag: tagId, type: 'Premium', aula: tagId }, q: 'fractura', page: 1 };
    const href = catalogViewHref(view);
    expect(href).toBe(`/procedimientos/kynd/Perro?tag=${tagId}&type=Premium&aula=${tagId}&q=fractura`);
    expect(roundTrip(href)).toEqual(view);
  });

  it('leaves out the first page and an empty search', () => {
    expect(catalogViewHref({ filters: {}, q: '', page: 1 })).toBe('/procedimientos');
    expect(catalogViewHref({ filters: { type: 'Gratis' }, q: '', page: 2 })).toBe('/procedimientos/type/Gratis?page=2');
  });
});

describe('withFilter', () => {
  it('adds a kind to the others, replaces the same kind, clears it with null, and goes back to page 1', () => {
    const view = { filters: { kynd: 'Gato' }, q: 'piometra', page: 4 };
    expect(withFilter(view, 'tag', tagId)).toEqual({ filters: { kynd: 'Gato', tag: tagId }, q: 'piometra', page: 1 });
    expect(withFilter(view, 'kynd', 'Perro')).toEqual({ filters: { kynd: 'Perro' }, q: 'piometra', page: 1 });
    expect(withFilter(view, 'kynd', null)).toEqual({ filters: {}, q: 'piometra', page: 1 });
  });
});

describe('toApiQuery', () => {
  it.each([
    ['kynd', 'Perro', { species: 'Perro' }],
    ['type', 'Gratis', { type: 'Gratis' }],
    ['tag', tagId, { tag: tagId }],
    ['aula', tagId, { classroom: tagId }],
  ] as const)('maps %s to the API parameter', (kind, value, expected) => {
    expect(toApiQuery({ filters: { [kind]: value }, q: '', page: 1 })).toEqual({ page: 1, ...expected });
  });

  it('sends every chosen filter with the search', () => {
    expect(toApiQuery({ filters: { kynd: 'Gato', type: 'Premium', tag: tagId }, q: 'ovario', page: 1 })).toEqual({
      page: 1,
      q: 'ovario',
      species: 'Gato',
      type: 'Premium',
      tag: tagId,
    });
  });

  it('builds the query string without empty values', () => {
    expect(apiQueryString(toApiQuery({ filters: {}, q: 'perra', page: 2 }))).toBe('page=2&q=perra');
  });
});

describe('isActiveFilter', () => {
  const view = { filters: { kynd: 'Gato' }, q: '', page: 1 };
  it('marks the chosen value and the other groups’ "all" entries', () => {
    expect(isActiveFilter(view, 'kynd', 'Gato')).toBe(true);
    expect(isActiveFilter(view, 'kynd', null)).toBe(false);
    expect(isActiveFilter(view, 'type', null)).toBe(true);
  });
});

describe("'No vistos'", () => {
  it('rides in the query beside every other filter and survives a change of filter', () => {
    const view = parseCatalogView({ type: 'kynd', filter: 'Gato' }, search('vistos=no&type=Premium&q=ovario&page=2'));
    expect(view).toEqual({ filters: { kynd: 'Gato', type: 'Premium' }, q: 'ovario', page: 2, unwatched: true });
    expect(catalogViewHref(view!)).toBe('/procedimientos/kynd/Gato?type=Premium&q=ovario&vistos=no&page=2');
    expect(withFilter(view!, 'tag', tagId)).toEqual({
      filters: { kynd: 'Gato', type: 'Premium', tag: tagId },
      q: 'ovario',
      page: 1,
      unwatched: true,
    });
    expect(toApiQuery(view!)).toMatchObject({ species: 'Gato', type: 'Premium', unwatched: '1' });
  });

  it('is turned off and on without touching the filters', () => {
    const view = { filters: { kynd: 'Perro' }, q: '', page: 3, unwatched: true as const };
    expect(withUnwatched(view, false)).toEqual({ filters: { kynd: 'Perro' }, q: '', page: 1 });
    expect(catalogViewHref(withUnwatched({ filters: {}, q: '', page: 1 }, true))).toBe('/procedimientos?vistos=no');
    expect(parseCatalogView({}, search('vistos=si'))).toEqual({ filters: {}, q: '', page: 1 });
  });
});

import { describe, expect, it } from 'vitest';
import { apiQueryString, catalogViewHref, isActiveFilter, parseCatalogView, toApiQuery } from './catalog-url.ts';

const tagId = '3f2b9c1e-8d4a-4e6b-9c7d-1a2b3c4d5e6f';
const search = (text = '') => new URLSearchParams(text);

describe('parseCatalogView', () => {
  it('reads the whole catalogue with no params', () => {
    expect(parseCatalogView({}, search())).toEqual({ filter: null, q: '', page: 1 });
  });

  it.each([
    ['kynd', 'Otras especies'],
    ['type', 'Premium'],
    ['tag', tagId],
    ['aula', tagId],
  ] as const)('reads a %s filter', (kind, value) => {
    expect(parseCatalogView({ type: kind, filter: value }, search('q=perra&page=2'))).toEqual({
      filter: { kind, value },
      q: 'perra',
      page: 2,
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

  it.each(['0', '-1', 'dos', '1.5', ''])('falls back to page 1 for page=%j', (page) => {
    expect(parseCatalogView({}, search(`page=${page}`))?.page).toBe(1);
  });
});

describe('catalogViewHref', () => {
  it('round-trips a view through its link', () => {
    const view = { filter: { kind: 'kynd', value: 'Otras especies' }, q: 'cirugía ósea', page: 3 } as const;
    const url = new URL(catalogViewHref(view), 'http://x');
    expect(url.pathname).toBe('/procedimientos/kynd/Otras%20especies');
    const [, , type, filter] = url.pathname.split('/');
    expect(parseCatalogView({ type, filter: decodeURIComponent(filter!) }, url.searchParams)).toEqual(view);
  });

  it('leaves out the first page and an empty search', () => {
    expect(catalogViewHref({ filter: null, q: '', page: 1 })).toBe('/procedimientos');
    expect(catalogViewHref({ filter: { kind: 'type', value: 'Gratis' }, q: '', page: 2 })).toBe(
      '/procedimientos/type/Gratis?page=2',
    );
  });
});

describe('toApiQuery', () => {
  it.each([
    ['kynd', 'Perro', { species: 'Perro' }],
    ['type', 'Gratis', { type: 'Gratis' }],
    ['tag', tagId, { tag: tagId }],
    ['aula', tagId, { classroom: tagId }],
  ] as const)('maps %s to the API parameter', (kind, value, expected) => {
    expect(toApiQuery({ filter: { kind, value }, q: '', page: 1 })).toEqual({ page: 1, ...expected });
  });

  it('builds the query string without empty values', () => {
    expect(apiQueryString(toApiQuery({ filter: null, q: 'perra', page: 2 }))).toBe('page=2&q=perra');
  });
});

describe('isActiveFilter', () => {
  const view = { filter: { kind: 'kynd', value: 'Gato' }, q: '', page: 1 } as const;
  it('marks the chosen value and the other groups’ "all" entries', () => {
    expect(isActiveFilter(view, 'kynd', 'Gato')).toBe(true);
    expect(isActiveFilter(view, 'kynd', null)).toBe(false);
    expect(isActiveFilter(view, 'type', null)).toBe(true);
  });
});

// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '#web/testing/render.tsx';
import { loadProcedure } from './catalog.api.ts';

const detail = (videoUrl: string | null) => ({
  id: 'p1',
  name: 'Cesárea en perra',
  videoUrl,
  previewUrl: '/media/procedures/p1/preview.jpg',
});

const preloads = () => [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"]')];

// jsdom has no CSS.escape; the addresses here need none
beforeEach(() => vi.stubGlobal('CSS', { escape: (value: string) => value }));
afterEach(() => {
  for (const link of preloads()) link.remove();
});

describe("the procedure page's loader", () => {
  it('asks for the poster at high priority once the detail names it, before the page renders', async () => {
    stubApi({ 'GET /api/catalog/procedures/*': () => detail('/media/procedures/p1/demo.mp4') });
    await loadProcedure(new QueryClient(), 'p1');
    expect(preloads().map((link) => [link.getAttribute('href'), link.as, link.fetchPriority])).toEqual([
      ['/media/procedures/p1/preview.jpg', 'image', 'high'],
    ]);
  });

  it('asks for nothing when the procedure has no video (no poster is shown) or the detail fails', async () => {
    stubApi({ 'GET /api/catalog/procedures/*': () => detail(null) });
    await loadProcedure(new QueryClient(), 'p1');
    stubApi({
      'GET /api/catalog/procedures/*': () => new Response(JSON.stringify({ code: 'NOT_FOUND' }), { status: 404 }),
    });
    await loadProcedure(new QueryClient(), 'p2');
    expect(preloads()).toEqual([]);
  });
});

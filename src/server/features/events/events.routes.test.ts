import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#server/testing/test-app.ts';
import { events } from '#server/db/schema/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('GET /api/events', () => {
  it('is empty when there are no active events', async () => {
    await t.db.insert(events).values({
      name: 'Oculto',
      displayDate: '1 de enero',
      sortDate: new Date('2027-01-01'),
      type: 'Taller',
      detailHtml: '<p>x</p>',
      status: 'Inactivo',
    });
    expect((await t.app.inject({ url: '/api/events' })).json()).toEqual({ events: [] });
  });

  it('lists active events by sort date with their media URLs', async () => {
    await t.db.insert(events).values([
      {
        name: 'Congreso',
        displayDate: '20 de marzo',
        sortDate: new Date('2027-03-20'),
        type: 'Congreso',
        detailHtml: '<p>b</p>',
        image: 'events/1_c.jpg',
        promoVideoId: 'abc123',
      },
      {
        name: 'Taller',
        displayDate: '5 de febrero',
        sortDate: new Date('2027-02-05'),
        type: 'Taller',
        detailHtml: '<p>a</p>',
        pdf: 'events/2_t.pdf',
      },
    ]);
    const body = (await t.app.inject({ url: '/api/events' })).json();
    expect(body.events.map((event: { name: string }) => event.name)).toEqual(['Taller', 'Congreso']);
    expect(body.events[0]).toMatchObject({ pdfUrl: '/media/events/2_t.pdf', imageUrl: null, promoVideoId: null });
    expect(body.events[1]).toMatchObject({ imageUrl: '/media/events/1_c.jpg', promoVideoId: 'abc123' });
  });
});

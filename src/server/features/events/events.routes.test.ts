import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#server/testing/test-app.ts';
import ICAL from 'ical.js';
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

describe('calendars', () => {
  const dated = {
    name: 'Congreso, "Cirugía"; día 1',
    displayDate: '12 y 13 de marzo',
    sortDate: new Date('2027-03-12'),
    type: 'Congreso',
    detailHtml: '<p>Tres días de <strong>conferencias</strong> &amp; talleres.</p><ul><li>Ortopedia</li></ul>',
    startsAt: new Date('2027-03-12T15:00:00Z'),
    endsAt: new Date('2027-03-14T00:30:00Z'),
    place: 'World Trade Center, Ciudad de México',
  };

  /** The calendar's one VTIMEZONE and its events, as ical.js reads them. */
  function parse(text: string) {
    const calendar = new ICAL.Component(ICAL.parse(text));
    const zones = calendar.getAllSubcomponents('vtimezone');
    for (const zone of zones) ICAL.TimezoneService.register(zone);
    return { calendar, zones, events: calendar.getAllSubcomponents('vevent').map((event) => new ICAL.Event(event)) };
  }

  it("'Añadir al calendario' downloads one event's .ics (RFC 5545) with its real times on the site's zone", async () => {
    const [row] = await t.db.insert(events).values(dated).returning();
    const response = await t.app.inject({ url: `/api/events/${row!.id}/calendar.ics` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="evento-${row!.id}.ics"`);
    // RFC 5545 §3.1: lines end in CRLF and are folded at 75 octets
    expect(response.body).toMatch(/^BEGIN:VCALENDAR\r\n/);
    for (const line of response.body.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(response.body).toContain('DTSTART;TZID=America/Mexico_City:20270312T090000');
    // RFC 5545 §3.8.7.2: DTSTAMP in UTC
    expect(response.body).toMatch(/\r\nDTSTAMP:\d{8}T\d{6}Z\r\n/);
    const { calendar, zones, events: parsed } = parse(response.body);
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('prodid')).toMatch(/CxVet/);
    expect(zones.map((zone) => zone.getFirstPropertyValue('tzid'))).toEqual(['America/Mexico_City']);
    expect(parsed).toHaveLength(1);
    const event = parsed[0]!;
    expect(event.summary).toBe('Congreso, "Cirugía"; día 1');
    expect(event.location).toBe('World Trade Center, Ciudad de México');
    expect(event.description).toBe('12 y 13 de marzo\n\nTres días de conferencias & talleres.\nOrtopedia');
    expect(event.uid).toBe(`evento-${row!.id}@localhost`);
    expect(event.startDate.toJSDate().toISOString()).toBe('2027-03-12T15:00:00.000Z');
    expect(event.endDate.toJSDate().toISOString()).toBe('2027-03-14T00:30:00.000Z');
    expect(event.startDate.zone?.tzid).toBe('America/Mexico_City');
  });

  it('the /eventos.ics feed holds every active event with real dates, and no other', async () => {
    const rows = await t.db
      .insert(events)
      .values([
        {
          ...dated,
          name: 'Webinar',
          startsAt: new Date('2027-05-01T01:00:00Z'),
          endsAt: new Date('2027-05-01T02:30:00Z'),
        },
        { ...dated, name: 'Inactivo', status: 'Inactivo' },
        { ...dated, name: 'Sin fechas', startsAt: null, endsAt: null },
      ])
      .returning();
    const response = await t.app.inject({ url: '/eventos.ics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(response.headers['content-disposition']).toBeUndefined();
    const { calendar, events: parsed } = parse(response.body);
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Eventos CxVet');
    const names = parsed.map((event) => event.summary);
    expect(names).toContain('Webinar');
    expect(names).not.toContain('Inactivo');
    expect(names).not.toContain('Sin fechas');
    const webinar = parsed.find((event) => event.summary === 'Webinar')!;
    // 19:00 of 30 April on the site's clock
    expect(webinar.startDate.toString()).toBe('2027-04-30T19:00:00');
    for (const row of rows.filter((row) => row.name !== 'Webinar'))
      expect((await t.app.inject({ url: `/api/events/${row.id}/calendar.ics` })).statusCode).toBe(404);
  });
});

import { describe, expect, it } from 'vitest';
import { useConsoleTestApp } from '#server/testing/console-test-app.ts';
import { randomUUID } from 'node:crypto';
import { uploadSample } from '#server/features/uploads/uploads.testing.ts';

const { state, call } = useConsoleTestApp();

async function eventInput(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Congreso de cirugía',
    displayDate: '12 y 13 de marzo',
    sortDate: '2027-03-12T00:00:00.000Z',
    type: 'Congreso',
    status: 'Activo',
    detailHtml: '<p>Programa <strong>completo</strong></p>',
    image: await uploadSample(state.t, state.admin.cookie, 'event-image', 'cartel.jpg'),
    pdf: null,
    programPdf: null,
    promoVideoId: 'dQw4w9WgXcQ',
    startsAt: '',
    endsAt: '',
    place: '',
    ...overrides,
  };
}

describe('events', () => {
  it('names every required field with Debes llenar este campo.', async () => {
    const response = await call('PUT', `/api/admin/events/${randomUUID()}`, {
      name: '',
      displayDate: '',
      sortDate: '',
      type: '',
      status: '',
      detailHtml: '',
      image: '',
      pdf: null,
      programPdf: null,
      promoVideoId: 'no vale!',
      startsAt: '',
      endsAt: '',
      place: '',
    });
    expect(response.json().fields).toEqual({
      name: 'Debes llenar este campo.',
      displayDate: 'Debes llenar este campo.',
      sortDate: 'Debes llenar este campo.',
      type: 'Debes llenar este campo.',
      status: 'Debes llenar este campo.',
      detailHtml: 'Debes llenar este campo.',
      image: 'Debes llenar este campo.',
      promoVideoId: 'Introduce un formato válido.',
    });
  });

  it('the event PDF must be a PDF', async () => {
    const input = await eventInput();
    const image = await uploadSample(state.t, state.admin.cookie, 'event-image', 'otra.png');
    const response = await call('PUT', `/api/admin/events/${randomUUID()}`, { ...input, pdf: image });
    expect(response.json().fields).toEqual({ pdf: 'El formato del archivo no es correcto.' });
  });

  it('stores the rich text clean of scripts, handlers, javascript: links, iframes and styles', async () => {
    const id = randomUUID();
    const dirty =
      '<h2 style="color:red">Agenda</h2><script>alert(1)</script><p onclick="x()">Hola <img src=x onerror="alert(1)">' +
      '<a href="javascript:alert(1)">malo</a> <a href="https://cxvet.com" target="_blank">bueno</a> <a href="mailto:a@b.com">correo</a></p>' +
      '<iframe src="https://evil.example"></iframe><ul><li>uno</li></ul>';
    const saved = await call('PUT', `/api/admin/events/${id}`, await eventInput({ detailHtml: dirty }));
    expect(saved.statusCode).toBe(200);
    const html: string = saved.json().detailHtml;
    expect(html).toBe(
      '<h2>Agenda</h2><p>Hola <a rel="noopener noreferrer">malo</a> <a href="https://cxvet.com" target="_blank" rel="noopener noreferrer">bueno</a> ' +
        '<a href="mailto:a@b.com" rel="noopener noreferrer">correo</a></p><ul><li>uno</li></ul>',
    );
    const publicList = await state.t.app.inject({ method: 'GET', url: '/api/events' });
    expect(publicList.json().events.find((event: { id: string }) => event.id === id).detailHtml).toBe(html);
  });

  it('an Inactivo event leaves the public agenda; deleting it deletes its files', async () => {
    const id = randomUUID();
    const input = await eventInput({
      pdf: await uploadSample(state.t, state.admin.cookie, 'event-pdf', 'evento.pdf'),
      programPdf: await uploadSample(state.t, state.admin.cookie, 'event-program', 'programa.pdf'),
    });
    await call('PUT', `/api/admin/events/${id}`, input);
    await call('PUT', `/api/admin/events/${id}`, { ...input, status: 'Inactivo' });
    const publicList = await state.t.app.inject({ method: 'GET', url: '/api/events' });
    expect(publicList.json().events.some((event: { id: string }) => event.id === id)).toBe(false);
    expect((await call('DELETE', `/api/admin/events/${id}`)).statusCode).toBe(200);
    for (const key of [input.image, input.pdf, input.programPdf])
      expect(await state.t.storage.stat(String(key))).toBeNull();
  });

  it('discarding a saved PDF removes it from the event and from storage', async () => {
    const id = randomUUID();
    const input = await eventInput({ pdf: await uploadSample(state.t, state.admin.cookie, 'event-pdf', 'evento.pdf') });
    await call('PUT', `/api/admin/events/${id}`, input);
    const saved = await call('PUT', `/api/admin/events/${id}`, { ...input, pdf: null });
    expect(saved.json().pdf).toBeNull();
    expect(await state.t.storage.stat(String(input.pdf))).toBeNull();
  });

  it('keeps the real start and end on the site clock and the place; the agenda gets the instants', async () => {
    const id = randomUUID();
    const input = await eventInput({ startsAt: '2027-03-12T09:00', endsAt: '2027-03-13T18:30', place: 'Guadalajara' });
    const saved = await call('PUT', `/api/admin/events/${id}`, input);
    expect(saved.json()).toMatchObject({
      startsAt: '2027-03-12T09:00',
      endsAt: '2027-03-13T18:30',
      place: 'Guadalajara',
    });
    const publicList = await state.t.app.inject({ method: 'GET', url: '/api/events' });
    // America/Mexico_City is UTC−6 all year since 2022
    expect(publicList.json().events.find((event: { id: string }) => event.id === id)).toMatchObject({
      displayDate: '12 y 13 de marzo',
      startsAt: '2027-03-12T15:00:00.000Z',
      endsAt: '2027-03-14T00:30:00.000Z',
      place: 'Guadalajara',
    });
  });

  it('refuses a start without an end, an end before the start and a date that is not one', async () => {
    const cases: [Record<string, string>, Record<string, string>][] = [
      [
        { startsAt: '2027-03-12T09:00', endsAt: '' },
        { endsAt: 'Escribe el inicio y el término del evento, o deja los dos vacíos.' },
      ],
      [
        { startsAt: '', endsAt: '2027-03-12T09:00' },
        { startsAt: 'Escribe el inicio y el término del evento, o deja los dos vacíos.' },
      ],
      [
        { startsAt: '2027-03-12T09:00', endsAt: '2027-03-12T09:00' },
        { endsAt: 'El término debe ser posterior al inicio.' },
      ],
      [{ startsAt: '12/03/2027', endsAt: '2027-03-12T10:00' }, { startsAt: 'Escribe una fecha y hora válidas.' }],
    ];
    for (const [dates, fields] of cases) {
      const response = await call('PUT', `/api/admin/events/${randomUUID()}`, await eventInput(dates));
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toEqual(fields);
    }
  });
});

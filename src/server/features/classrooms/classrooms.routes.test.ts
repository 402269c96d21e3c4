import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createClassroom, createProcedure, signedInAs } from '#server/testing/factories.ts';
import { createClassroomsService } from './classrooms.service.ts';
import { classroomWarnings } from '#server/db/schema/index.ts';

let t: TestApp;
type Account = { cookie: string; user: { id: string; type: string } };
let accounts: Record<'inList' | 'notInList' | 'aulaAdmin' | 'premium' | 'admin', Account>;

const dayMs = 86_400_000;
const states = {
  active: { isActive: true, expiresAt: new Date(Date.now() + 30 * dayMs) },
  inactive: { isActive: false, expiresAt: new Date(Date.now() + 30 * dayMs) },
  expired: { isActive: true, expiresAt: new Date(Date.now() - 60_000) },
} as const;
type State = keyof typeof states;
type Access = 'Acceso libre' | 'Acceso controlado';

/** One aula (with its own Premium procedure) per access type and state. */
const aulas = new Map<string, { id: string; procedure: Awaited<ReturnType<typeof createProcedure>> }>();

beforeAll(async () => {
  t = await createTestApp();
  accounts = {
    inList: await signedInAs(t, { type: 'Gratis' }),
    notInList: await signedInAs(t, { type: 'Gratis' }),
    aulaAdmin: await signedInAs(t, { type: 'Gratis' }),
    premium: await signedInAs(t, { type: 'Premium' }),
    admin: await signedInAs(t, { type: 'Admin' }),
  };
  for (const access of ['Acceso libre', 'Acceso controlado'] as const) {
    for (const state of Object.keys(states) as State[]) {
      const procedure = await createProcedure(t, { type: 'Premium', name: `${access} ${state}` });
      const classroom = await createClassroom(t, {
        procedureIds: [procedure.id],
        userIds: [accounts.inList.user.id],
        values: {
          accessType: access,
          adminUserId: accounts.aulaAdmin.user.id,
          title: `${access} ${state}`,
          ...states[state],
        },
      });
      aulas.set(`${access} ${state}`, { id: classroom.id, procedure });
    }
  }
});
afterAll(async () => t.close());

const headers = (cookie?: string) => ({ origin: testPublicUrl, ...(cookie ? { cookie } : {}) });

async function mediaStatus(key: string, cookie?: string) {
  let query = '';
  if (cookie && key.endsWith('_video.mp4')) {
    const token = await t.app.inject({ method: 'POST', url: '/api/viewing/token', headers: headers(cookie) });
    query = `?vt=${token.json().token}`;
  }
  return (await t.app.inject({ url: `/media/${key}${query}`, headers: headers(cookie) })).statusCode;
}

type Who = 'guest' | keyof typeof accounts;
/** Who enters which aula: DESIGN.md's rule; Premium and Admin watch Premium videos anyway. */
function mayEnter(who: Who, access: Access, state: State): boolean {
  if (who === 'guest' || state !== 'active') return false;
  if (access === 'Acceso libre') return true;
  return who === 'inList' || who === 'aulaAdmin' || who === 'admin';
}
const watchesAnyway = (who: Who) => who === 'premium' || who === 'admin';

const cases = (['guest', 'notInList', 'inList', 'aulaAdmin', 'premium', 'admin'] as const).flatMap((who) =>
  (['Acceso libre', 'Acceso controlado'] as const).flatMap((access) =>
    (Object.keys(states) as State[]).map((state) => [who, access, state] as const),
  ),
);

describe('the aula access matrix', () => {
  it.each(cases)('%s × %s × %s: the aula page, the procedure and its media', async (who, access, state) => {
    const cookie = who === 'guest' ? undefined : accounts[who].cookie;
    const aula = aulas.get(`${access} ${state}`)!;
    const page = await t.app.inject({ url: `/api/classrooms/${aula.id}`, headers: headers(cookie) });
    const enters = mayEnter(who, access, state);
    expect(page.statusCode).toBe(who === 'guest' ? 401 : enters ? 200 : 403);

    const full = enters || watchesAnyway(who);
    const detail = await t.app.inject({
      url: `/api/catalog/procedures/${aula.procedure.id}`,
      headers: headers(cookie),
    });
    expect(detail.json()).toMatchObject({ isDemo: !full, isLocked: !full });
    const denied = who === 'guest' ? 401 : 403;
    expect(await mediaStatus(aula.procedure.fullVideo!, cookie)).toBe(full ? 200 : denied);
    expect(await mediaStatus(aula.procedure.guidePdf!, cookie)).toBe(full ? 200 : denied);
  });

  it('lists in My Aulas only the active, unexpired aulas the account may enter', async () => {
    const titles = async (cookie: string) =>
      ((await t.app.inject({ url: '/api/classrooms', headers: headers(cookie) })).json().items as { title: string }[])
        .map((item) => item.title)
        .sort();
    expect(await titles(accounts.notInList.cookie)).toEqual(['Acceso libre active']);
    expect(await titles(accounts.inList.cookie)).toEqual(['Acceso controlado active', 'Acceso libre active']);
    expect(await titles(accounts.aulaAdmin.cookie)).toEqual(['Acceso controlado active', 'Acceso libre active']);
    expect(await titles(accounts.admin.cookie)).toEqual(['Acceso controlado active', 'Acceso libre active']);
    expect((await t.app.inject({ url: '/api/classrooms', headers: headers() })).statusCode).toBe(401);
  });

  it('answers 404 for an aula that does not exist', async () => {
    const response = await t.app.inject({
      url: '/api/classrooms/00000000-0000-4000-8000-000000000000',
      headers: headers(accounts.admin.cookie),
    });
    expect(response.statusCode).toBe(404);
  });
});

describe('expiry warnings', () => {
  it('warn a member once per threshold as the clock moves (10 days, then 3 days), never after expiry', async () => {
    const member = await signedInAs(t, { type: 'Gratis' });
    const procedure = await createProcedure(t, { type: 'Premium' });
    const expiresAt = new Date('2030-06-30T12:00:00Z');
    const aula = await createClassroom(t, {
      procedureIds: [procedure.id],
      userIds: [member.user.id],
      values: { title: 'Aula reloj', expiresAt },
    });
    let clock = new Date(expiresAt.getTime() - 12 * dayMs);
    const service = createClassroomsService({ db: t.db, now: () => clock });
    const user = await t.app.services.accounts.resolveUser({ headers: { cookie: member.cookie } } as never);
    const claim = async () =>
      (await service.claimExpiryWarnings(user!)).filter((warning) => warning.classroomId === aula.id);

    expect(await claim()).toEqual([]);
    clock = new Date(expiresAt.getTime() - 9.5 * dayMs);
    expect(await claim()).toEqual([
      { classroomId: aula.id, title: 'Aula reloj', expiresAt: expiresAt.toISOString(), timeLeft: '10 días' },
    ]);
    expect(await claim()).toEqual([]);
    clock = new Date(expiresAt.getTime() - 5 * dayMs);
    expect(await claim()).toEqual([]);
    clock = new Date(expiresAt.getTime() - 2 * dayMs - 30 * 60_000);
    expect(await claim()).toEqual([expect.objectContaining({ timeLeft: '49 horas' })]);
    expect(await claim()).toEqual([]);
    clock = new Date(expiresAt.getTime() + 60_000);
    expect(await claim()).toEqual([]);
    const rows = (await t.db.select().from(classroomWarnings)).filter((row) => row.classroomId === aula.id);
    expect(rows.map((row) => row.kind).sort()).toEqual(['DIEZ_DIAS', 'TRES_DIAS']);
  });

  it('warns a member who was never warned once, recording both thresholds, even from two tabs at once', async () => {
    const member = await signedInAs(t, { type: 'Gratis' });
    const outsider = await signedInAs(t, { type: 'Gratis' });
    const procedure = await createProcedure(t, { type: 'Premium' });
    const aula = await createClassroom(t, {
      procedureIds: [procedure.id],
      userIds: [member.user.id],
      values: { title: 'Aula por terminar', expiresAt: new Date(Date.now() + 2 * dayMs) },
    });
    const claim = (cookie: string) =>
      t.app.inject({ method: 'POST', url: '/api/classrooms/expiry-warnings', headers: headers(cookie) });
    const [first, second] = await Promise.all([claim(member.cookie), claim(member.cookie)]);
    const shown = [...first.json().items, ...second.json().items];
    expect(shown).toEqual([
      expect.objectContaining({ classroomId: aula.id, title: 'Aula por terminar', timeLeft: '48 horas' }),
    ]);
    expect((await claim(member.cookie)).json().items).toEqual([]);
    expect((await claim(outsider.cookie)).json().items).toEqual([]);
    const rows = (await t.db.select().from(classroomWarnings)).filter((row) => row.classroomId === aula.id);
    expect(rows.map((row) => row.kind).sort()).toEqual(['DIEZ_DIAS', 'TRES_DIAS']);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/classrooms/expiry-warnings', headers: headers() })).statusCode,
    ).toBe(401);
  });
});

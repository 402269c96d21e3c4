import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createClassroom, createProcedure, createUser, randomTestIp, signedInAs } from '#server/testing/factories.ts';
import { classroomUsers, classrooms, users } from '#server/db/schema/index.ts';

let t: TestApp;
let staff: Awaited<ReturnType<typeof signedInAs>>;
let own: { id: string; organizationId: string };
let other: { id: string };
let universityId: string;

beforeAll(async () => {
  t = await createTestApp();
  const procedure = await createProcedure(t, { type: 'Premium' });
  own = await createClassroom(t, { procedureIds: [procedure.id], values: { title: 'Mi aula' } });
  universityId = own.organizationId;
  staff = await signedInAs(t, { organizationId: universityId });
  await t.db.update(classrooms).set({ adminUserId: staff.user.id }).where(eq(classrooms.id, own.id));
  other = await createClassroom(t, {
    procedureIds: [procedure.id],
    values: { title: 'Aula ajena', organizationId: universityId },
  });
});
afterAll(async () => t.close());

const base = '/api/classroom-admin/classrooms';
const headers = (cookie = staff.cookie) => ({ origin: testPublicUrl, cookie });
const membersOf = async (id: string) =>
  (await t.db.select({ userId: classroomUsers.userId }).from(classroomUsers).where(eq(classroomUsers.classroomId, id)))
    .map((row) => row.userId)
    .sort();

describe('an aula administrator', () => {
  it('sees only their own active aulas, and /api/me says they administer one', async () => {
    const list = (await t.app.inject({ url: base, headers: headers() })).json().items;
    expect(list).toEqual([expect.objectContaining({ id: own.id, title: 'Mi aula', userCount: 0 })]);
    expect((await t.app.inject({ url: '/api/me', headers: headers() })).json().user.isClassroomAdmin).toBe(true);
  });

  it('cannot read or change another aula: it answers 404, as if it did not exist', async () => {
    const student = await createUser(t, { organizationId: universityId });
    expect((await t.app.inject({ url: `${base}/${other.id}`, headers: headers() })).statusCode).toBe(404);
    const change = await t.app.inject({
      method: 'PATCH',
      url: `${base}/${other.id}/users`,
      headers: headers(),
      payload: { addedUserIds: [student.id], removedUserIds: [] },
    });
    expect(change.statusCode).toBe(404);
    expect((await t.app.inject({ url: `${base}/${other.id}/candidates`, headers: headers() })).statusCode).toBe(404);
    const add = await t.app.inject({
      method: 'POST',
      url: `${base}/${other.id}/users`,
      headers: headers(),
      payload: { userIds: [student.id] },
    });
    expect(add.statusCode).toBe(404);
    expect((await t.app.inject({ url: `${base}/${other.id}/users.xlsx`, headers: headers() })).statusCode).toBe(404);
    const preview = await t.app.inject({
      method: 'POST',
      url: `${base}/${other.id}/import-preview`,
      headers: headers(),
      payload: { format: 'text', text: student.email },
    });
    expect(preview.statusCode).toBe(404);
    expect(await membersOf(other.id)).toEqual([]);
  });

  it('changes only the users list: other fields sent along are ignored, the Admin API stays closed', async () => {
    const student = await createUser(t, { organizationId: universityId });
    const response = await t.app.inject({
      method: 'PATCH',
      url: `${base}/${own.id}/users`,
      headers: headers(),
      payload: {
        addedUserIds: [student.id],
        removedUserIds: [],
        title: 'Otro título',
        isActive: false,
        adminUserId: student.id,
      },
    });
    expect(response.statusCode).toBe(200);
    const [row] = await t.db.select().from(classrooms).where(eq(classrooms.id, own.id));
    expect(row).toMatchObject({ title: 'Mi aula', isActive: true, adminUserId: staff.user.id });
    expect(await membersOf(own.id)).toEqual([student.id]);
    for (const request of [
      { method: 'PUT' as const, url: `/api/admin/classrooms/${own.id}/active`, payload: { isActive: false } },
      { method: 'GET' as const, url: `/api/admin/classrooms/${own.id}` },
      { method: 'DELETE' as const, url: `/api/admin/classrooms/${own.id}` },
    ]) {
      expect((await t.app.inject({ ...request, headers: headers() })).statusCode).toBe(403);
    }
  });

  it('pages the accounts the aula admits: any-case search, sort, members marked and filtered, 12 rows with the total', async () => {
    const stamp = crypto.randomUUID().slice(0, 8);
    const people = [];
    for (let index = 1; index <= 14; index += 1) {
      people.push(
        await createUser(t, {
          organizationId: universityId,
          name: `Alumna ${index}`,
          email: `alumna-${stamp}-${String(index).padStart(2, '0')}@uni.example.com`,
        }),
      );
    }
    const outsider = await createUser(t, { email: `alumna-${stamp}-99@otra.example.com` });
    const members = [people[1]!, people[13]!];
    const change = (payload: object) =>
      t.app.inject({ method: 'PATCH', url: `${base}/${own.id}/users`, headers: headers(), payload });
    expect((await change({ addedUserIds: members.map((user) => user.id), removedUserIds: [] })).statusCode).toBe(200);
    const page = async (query: string) => {
      const response = await t.app.inject({
        url: `${base}/${own.id}/candidates?q=ALUMNA-${stamp}${query}`,
        headers: headers(),
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as { items: { id: string; assigned: boolean }[]; total: number };
    };
    const first = await page('');
    // a Universidad aula: its members only, never the outsider
    expect(first.total).toBe(14);
    expect(first.items.map((user) => user.id)).toEqual(people.slice(0, 12).map((user) => user.id));
    expect(first.items[1]!.assigned).toBe(true);
    expect((await page('&page=2')).items.map((user) => user.id)).toEqual(people.slice(12).map((user) => user.id));
    expect((await page('&sort=name&dir=desc')).items[0]!.id).toBe(people[8]!.id);
    expect((await page('&assignedOnly=true')).items.map((user) => user.id)).toEqual(members.map((user) => user.id));
    expect((await page('&sort=assigned&dir=desc')).items.slice(0, 3).map((user) => user.id)).toEqual([
      ...members.map((user) => user.id),
      people[0]!.id,
    ]);
    expect(JSON.stringify(await page(''))).not.toContain(outsider.id);
    for (const bad of ['&sort=password', '&page=0', `&q=${'x'.repeat(101)}`]) {
      const response = await t.app.inject({ url: `${base}/${own.id}/candidates?${bad.slice(1)}`, headers: headers() });
      expect(response.statusCode, bad).toBe(400);
    }

    // 'Guardar' sends the ticks and unticks; an outsider among them refuses the whole change
    const refused = await change({ addedUserIds: [people[0]!.id, outsider.id], removedUserIds: [members[0]!.id] });
    expect(refused.statusCode).toBe(400);
    expect((await page('&assignedOnly=true')).total).toBe(2);
    expect((await change({ addedUserIds: [people[0]!.id], removedUserIds: [members[0]!.id] })).statusCode).toBe(200);
    expect((await page('&assignedOnly=true')).items.map((user) => user.id)).toEqual([people[0]!.id, people[13]!.id]);
  });

  it('adds only members of the university, all or nothing', async () => {
    const before = await membersOf(own.id);
    const student = await createUser(t, { organizationId: universityId });
    const outsider = await createUser(t);
    const refused = await t.app.inject({
      method: 'POST',
      url: `${base}/${own.id}/users`,
      headers: headers(),
      payload: { userIds: [student.id, outsider.id] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Algunas cuentas no pueden agregarse a esta aula; no se agregó ninguna.');
    expect(await membersOf(own.id)).toEqual(before);
    const unknown = await t.app.inject({
      method: 'POST',
      url: `${base}/${own.id}/users`,
      headers: headers(),
      payload: { userIds: [student.id, 'no-existe'] },
    });
    expect(unknown.statusCode).toBe(400);
    expect(await membersOf(own.id)).toEqual(before);
    const added = await t.app.inject({
      method: 'POST',
      url: `${base}/${own.id}/users`,
      headers: headers(),
      payload: { userIds: [student.id, student.id] },
    });
    expect(added.json()).toEqual({ added: 1 });
    expect(await membersOf(own.id)).toEqual([...before, student.id].sort());
  });

  it('previews a pasted list as will be added or not, naming no account outside the organization, and exports its members', async () => {
    const newcomer = await createUser(t, { organizationId: universityId, email: 'nuevo@uni.example.com' });
    const outsider = await createUser(t, { email: 'ajena@otra.example.com', name: 'Cuenta Ajena' });
    const admin = await createUser(t, { type: 'Admin', email: 'jefa@cxvet.example.com', name: 'Jefa Admin' });
    const saved = (
      await t.app.inject({ url: `${base}/${own.id}/candidates?assignedOnly=true`, headers: headers() })
    ).json();
    const already = saved.items[0].email as string;
    const text = `correo\n${already}\nNUEVO@uni.example.com\n\nnadie@example.com\najena@otra.example.com\njefa@cxvet.example.com\nnuevo@uni.example.com\n`;
    const response = await t.app.inject({
      method: 'POST',
      url: `${base}/${own.id}/import-preview`,
      headers: headers(),
      payload: { format: 'text', text },
    });
    const preview = response.json();
    expect(preview.lines.map((line: { status: string; reason: string }) => [line.status, line.reason])).toEqual([
      ['refused', 'No contiene un correo válido'],
      ['refused', 'Ya está en el aula'],
      ['ok', 'Se agregará al aula'],
      ['refused', 'Línea vacía'],
      ['refused', 'No se puede agregar: ninguna cuenta que pueda entrar a esta aula tiene este correo'],
      ['refused', 'No se puede agregar: ninguna cuenta que pueda entrar a esta aula tiene este correo'],
      ['refused', 'No se puede agregar: ninguna cuenta que pueda entrar a esta aula tiene este correo'],
      ['refused', 'Repetido: ya aparece en la línea 3'],
    ]);
    expect(preview.matched).toEqual([{ id: newcomer.id, name: newcomer.name, email: 'nuevo@uni.example.com' }]);
    for (const account of [outsider, admin]) {
      expect(response.body).not.toContain(account.id);
      expect(response.body).not.toContain(account.name);
    }
    const found = (await t.app.inject({ url: `${base}/${own.id}/candidates?q=NUEVO@UNI`, headers: headers() })).json();
    expect(found.items).toEqual([
      { id: newcomer.id, name: newcomer.name, email: 'nuevo@uni.example.com', assigned: false },
    ]);
    const file = await t.app.inject({ url: `${base}/${own.id}/users.xlsx`, headers: headers() });
    expect(file.statusCode).toBe(200);
  });

  it('never hands out an Admin account, even in an aula open to every account', async () => {
    const procedure = await createProcedure(t, { type: 'Premium' });
    const open = await createClassroom(t, {
      procedureIds: [procedure.id],
      values: { title: 'Aula abierta', organizationType: 'Empresa', adminUserId: staff.user.id },
    });
    const admin = await createUser(t, { type: 'Admin', email: 'otra-jefa@cxvet.example.com' });
    const anyone = await createUser(t, { email: 'cualquiera@example.com' });
    const response = await t.app.inject({
      method: 'POST',
      url: `${base}/${open.id}/import-preview`,
      headers: headers(),
      payload: { format: 'text', text: 'otra-jefa@cxvet.example.com\ncualquiera@example.com' },
    });
    expect(response.json().lines.map((line: { status: string }) => line.status)).toEqual(['refused', 'ok']);
    expect(response.json().matched.map((user: { id: string }) => user.id)).toEqual([anyone.id]);
    expect(response.body).not.toContain(admin.id);
  });

  it('lists and adds no Admin account, in an Empresa aula open to every account as in a Universidad one', async () => {
    const stamp = crypto.randomUUID().slice(0, 8);
    const procedure = await createProcedure(t);
    const company = await createClassroom(t, {
      procedureIds: [procedure.id],
      values: { title: 'Aula de empresa', organizationType: 'Empresa', adminUserId: staff.user.id },
    });
    const student = await createUser(t, { organizationId: universityId, email: `cuenta-${stamp}-1@uni.example.com` });
    const admins = [
      await createUser(t, { type: 'Admin', organizationId: universityId, email: `cuenta-${stamp}-2@uni.example.com` }),
      await createUser(t, { type: 'Admin', email: `cuenta-${stamp}-3@cxvet.example.com` }),
    ];
    for (const aula of [company, own]) {
      const before = await membersOf(aula.id);
      const listed = await t.app.inject({ url: `${base}/${aula.id}/candidates?q=cuenta-${stamp}`, headers: headers() });
      expect(listed.json().items.map((user: { id: string }) => user.id)).toEqual([student.id]);
      for (const admin of admins) {
        expect(listed.body).not.toContain(admin.id);
        const changed = await t.app.inject({
          method: 'PATCH',
          url: `${base}/${aula.id}/users`,
          headers: headers(),
          payload: { addedUserIds: [student.id, admin.id], removedUserIds: [] },
        });
        expect(changed.statusCode).toBe(400);
        expect(changed.json().code).toBe('CLASSROOM_USERS_NOT_ALLOWED');
        const added = await t.app.inject({
          method: 'POST',
          url: `${base}/${aula.id}/users`,
          headers: headers(),
          payload: { userIds: [admin.id] },
        });
        expect(added.statusCode).toBe(400);
      }
      expect(await membersOf(aula.id)).toEqual(before);
    }
  });

  it('keeps a member who is no longer admitted listed and ticked, so that saving other ticks works and an untick removes them', async () => {
    const stamp = crypto.randomUUID().slice(0, 8);
    const [leaver, promoted, newcomer] = await Promise.all(
      [1, 2, 3].map((index) =>
        createUser(t, { organizationId: universityId, email: `cuenta-${stamp}-${index}@uni.example.com` }),
      ),
    );
    const change = (payload: object) =>
      t.app.inject({ method: 'PATCH', url: `${base}/${own.id}/users`, headers: headers(), payload });
    expect((await change({ addedUserIds: [leaver!.id, promoted!.id], removedUserIds: [] })).statusCode).toBe(200);
    const otherUniversity = await createClassroom(t, { procedureIds: [] });
    await t.db.update(users).set({ organizationId: otherUniversity.organizationId }).where(eq(users.id, leaver!.id));
    await t.db.update(users).set({ type: 'Admin' }).where(eq(users.id, promoted!.id));

    const listed = async () =>
      (await t.app.inject({ url: `${base}/${own.id}/candidates?q=cuenta-${stamp}`, headers: headers() }))
        .json()
        .items.map((user: { id: string; assigned: boolean }) => [user.id, user.assigned]);
    expect(await listed()).toEqual([
      [leaver!.id, true],
      [promoted!.id, true],
      [newcomer!.id, false],
    ]);
    expect((await change({ addedUserIds: [newcomer!.id], removedUserIds: [] })).statusCode).toBe(200);
    expect((await change({ addedUserIds: [], removedUserIds: [leaver!.id, promoted!.id] })).statusCode).toBe(200);
    // once unticked they are out of the aula's reach: neither listed nor ticked again
    expect(await listed()).toEqual([[newcomer!.id, true]]);
    expect((await change({ addedUserIds: [leaver!.id], removedUserIds: [] })).statusCode).toBe(400);
  });

  it('takes two saves of the same aula at once: different ticks both kept, the same ticks once, crossed changes one after the other', async () => {
    const procedure = await createProcedure(t);
    const aula = await createClassroom(t, {
      procedureIds: [procedure.id],
      values: { title: 'Aula concurrida', organizationId: universityId, adminUserId: staff.user.id },
    });
    const students = await Promise.all(
      Array.from({ length: 60 }, () => createUser(t, { organizationId: universityId })),
    );
    const ids = (from: number, to: number) => students.slice(from, to).map((user) => user.id);
    const change = (payload: { addedUserIds: string[]; removedUserIds: string[] }) =>
      t.app.inject({ method: 'PATCH', url: `${base}/${aula.id}/users`, headers: headers(), payload });
    const both = async (...payloads: { addedUserIds: string[]; removedUserIds: string[] }[]) => {
      const responses = await Promise.all(payloads.map(change));
      expect(responses.map((response) => [response.statusCode, response.body])).toEqual(
        payloads.map(() => [200, '{"ok":true}']),
      );
      const members = await membersOf(aula.id);
      expect(new Set(members).size).toBe(members.length);
      const read = (await t.app.inject({ url: `${base}/${aula.id}`, headers: headers() })).json();
      expect(read.userCount).toBe(members.length);
      return members;
    };
    const sorted = (list: string[]) => [...list].sort();

    // overlapping ticks, in opposite orders
    expect(
      await both(
        { addedUserIds: ids(0, 30), removedUserIds: [] },
        { addedUserIds: ids(15, 45).reverse(), removedUserIds: [] },
      ),
    ).toEqual(sorted(ids(0, 45)));
    const same = { addedUserIds: ids(45, 60), removedUserIds: [] };
    expect(await both(same, same)).toEqual(sorted(ids(0, 60)));
    // each unticks what the other ticks: whichever runs last decides, never a mix
    for (let round = 0; round < 3; round += 1) {
      const members = await both(
        { addedUserIds: ids(0, 30), removedUserIds: ids(30, 60) },
        { addedUserIds: ids(30, 60).reverse(), removedUserIds: ids(0, 30).reverse() },
      );
      expect([sorted(ids(0, 30)), sorted(ids(30, 60))]).toContainEqual(members);
    }
  });

  it('rate-limits the preview: the 21st within ten minutes answers 429', async () => {
    const remoteAddress = randomTestIp();
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: `${base}/${own.id}/import-preview`,
        headers: headers(),
        remoteAddress,
        payload: { format: 'text', text: 'nadie@example.com' },
      });
    for (let count = 0; count < 20; count++) expect((await send()).statusCode).toBe(200);
    expect((await send()).statusCode).toBe(429);
  });

  it('loses every right once the aula is deactivated', async () => {
    const staffOfInactive = await signedInAs(t, { organizationId: universityId });
    const procedure = await createProcedure(t);
    const inactive = await createClassroom(t, {
      procedureIds: [procedure.id],
      values: { adminUserId: staffOfInactive.user.id, isActive: false },
    });
    expect((await t.app.inject({ url: base, headers: headers(staffOfInactive.cookie) })).statusCode).toBe(403);
    expect(
      (await t.app.inject({ url: `${base}/${inactive.id}`, headers: headers(staffOfInactive.cookie) })).statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ url: '/api/me', headers: headers(staffOfInactive.cookie) })).json().user.isClassroomAdmin,
    ).toBe(false);
  });

  it('is refused to guests (401) and to members who administer nothing (403); an Admin finds no aula of others here (404)', async () => {
    const member = await signedInAs(t, { type: 'Premium' });
    const admin = await signedInAs(t, { type: 'Admin' });
    for (const url of [base, `${base}/${own.id}`, `${base}/${own.id}/users.xlsx`, `${base}/${own.id}/candidates`]) {
      expect((await t.app.inject({ url, headers: { origin: testPublicUrl } })).statusCode).toBe(401);
      expect((await t.app.inject({ url, headers: headers(member.cookie) })).statusCode).toBe(403);
    }
    expect((await t.app.inject({ url: base, headers: headers(admin.cookie) })).json()).toEqual({ items: [] });
    expect((await t.app.inject({ url: `${base}/${own.id}`, headers: headers(admin.cookie) })).statusCode).toBe(404);
  });
});

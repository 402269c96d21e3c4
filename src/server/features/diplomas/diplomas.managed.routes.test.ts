import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createUser, signedInAs } from '#server/testing/factories.ts';
import { diplomaUsers, diplomas } from '#server/db/schema/index.ts';
import { messages } from '#shared/messages.ts';
import type { DiplomaUserRow, ManagedDiploma } from '#shared/diplomas/diplomas.admin.schemas.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function call(method: 'GET' | 'PUT', url: string, cookie: string | null, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: { origin: testPublicUrl, ...(cookie ? { cookie } : {}) },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function diplomaOf(adminUserId: string | null, values: Partial<typeof diplomas.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(diplomas)
    .values({
      title: `Diplomado ${randomUUID().slice(0, 4)}`,
      descriptionHtml: '<p>Texto</p>',
      adminUserId,
      isActive: true,
      ...values,
    })
    .returning();
  return row!;
}

describe('diploma administrators (/api/diploma-admin)', () => {
  it('list only their own active diplomas, newest first', async () => {
    const { user, cookie } = await signedInAs(t, { type: 'Premium' });
    const older = await diplomaOf(user.id, { createdAt: new Date('2025-01-01') });
    const newer = await diplomaOf(user.id, { createdAt: new Date('2026-01-01') });
    await diplomaOf(user.id, { isActive: false });
    await diplomaOf(null);
    const response = await call('GET', '/api/diploma-admin/diplomas', cookie);
    expect(response.statusCode).toBe(200);
    expect((response.json() as { items: ManagedDiploma[] }).items.map((item) => item.id)).toEqual([newer.id, older.id]);
  });

  it('edit the user list of their diploma: Premium and Admin only, adding records when the user began', async () => {
    const { user, cookie } = await signedInAs(t, { type: 'Gratis' });
    const diploma = await diplomaOf(user.id);
    const member = await createUser(t, { type: 'Premium' });
    const basic = await createUser(t, { type: 'Gratis' });
    const listed = async (email: string) =>
      (
        (
          await call('GET', `/api/diploma-admin/diplomas/${diploma.id}/users?q=${encodeURIComponent(email)}`, cookie)
        ).json() as { items: DiplomaUserRow[] }
      ).items;
    expect(await listed(member.email)).toEqual([expect.objectContaining({ id: member.id, assigned: false })]);
    expect(await listed(basic.email)).toEqual([]);

    expect(
      (await call('PUT', `/api/diploma-admin/diplomas/${diploma.id}/users/${member.id}`, cookie, { assigned: true }))
        .statusCode,
    ).toBe(200);
    const [row] = await t.db.select().from(diplomaUsers).where(eq(diplomaUsers.diplomaId, diploma.id));
    expect(row).toMatchObject({ userId: member.id });
    expect(row!.beganAt).toBeInstanceOf(Date);
    const refused = await call('PUT', `/api/diploma-admin/diplomas/${diploma.id}/users/${basic.id}`, cookie, {
      assigned: true,
    });
    expect(refused.json().fields.userId).toBe(messages.diplomaUserNotEnrollable);

    expect(
      (await call('PUT', `/api/diploma-admin/diplomas/${diploma.id}/users/${member.id}`, cookie, { assigned: false }))
        .statusCode,
    ).toBe(200);
    expect(await t.db.select().from(diplomaUsers).where(eq(diplomaUsers.diplomaId, diploma.id))).toHaveLength(0);
    const detail = (await call('GET', `/api/diploma-admin/diplomas/${diploma.id}`, cookie)).json() as ManagedDiploma;
    expect(detail).toMatchObject({ id: diploma.id, userCount: 0 });
  });

  it('reach nothing of a diploma administered by someone else, or of their own once it is inactive', async () => {
    const { user, cookie } = await signedInAs(t, { type: 'Premium' });
    await diplomaOf(user.id); // an active one, so the scope's guard lets them in
    const other = await createUser(t, { type: 'Premium' });
    const foreign = await diplomaOf(other.id);
    const inactive = await diplomaOf(user.id, { isActive: false });
    const member = await createUser(t, { type: 'Premium' });
    for (const id of [foreign.id, inactive.id]) {
      expect((await call('GET', `/api/diploma-admin/diplomas/${id}`, cookie)).statusCode).toBe(404);
      expect((await call('GET', `/api/diploma-admin/diplomas/${id}/users`, cookie)).statusCode).toBe(404);
      expect(
        (await call('PUT', `/api/diploma-admin/diplomas/${id}/users/${member.id}`, cookie, { assigned: true }))
          .statusCode,
      ).toBe(404);
    }
    expect(await t.db.select().from(diplomaUsers).where(eq(diplomaUsers.userId, member.id))).toHaveLength(0);
  });

  it('an Admin who administers no diploma sees an empty list and cannot edit others here', async () => {
    const { cookie } = await signedInAs(t, { type: 'Admin' });
    const other = await createUser(t, { type: 'Premium' });
    const foreign = await diplomaOf(other.id);
    expect(((await call('GET', '/api/diploma-admin/diplomas', cookie)).json() as { items: unknown[] }).items).toEqual(
      [],
    );
    expect((await call('GET', `/api/diploma-admin/diplomas/${foreign.id}/users`, cookie)).statusCode).toBe(404);
  });

  it('members who administer no active diploma get 403 on every route, even with an inactive one', async () => {
    const { user, cookie } = await signedInAs(t, { type: 'Premium' });
    const inactive = await diplomaOf(user.id, { isActive: false });
    expect((await call('GET', '/api/diploma-admin/diplomas', cookie)).statusCode).toBe(403);
    expect((await call('GET', `/api/diploma-admin/diplomas/${inactive.id}/users`, cookie)).statusCode).toBe(403);
  });

  it('guests get 401 on every route', async () => {
    const id = randomUUID();
    for (const [method, url] of [
      ['GET', '/api/diploma-admin/diplomas'],
      ['GET', `/api/diploma-admin/diplomas/${id}`],
      ['GET', `/api/diploma-admin/diplomas/${id}/users`],
      ['PUT', `/api/diploma-admin/diplomas/${id}/users/abc`],
    ] as const) {
      expect((await call(method, url, null, method === 'PUT' ? { assigned: true } : undefined)).statusCode).toBe(401);
    }
  });
});

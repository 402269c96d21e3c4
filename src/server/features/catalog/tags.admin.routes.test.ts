import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { messages } from '#shared/messages.ts';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedInAs(t, { type: 'Admin' })).cookie;
});
afterAll(() => t.close());

function call(method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: unknown, cookie: string | null = admin) {
  return t.app.inject({
    method,
    url,
    headers: { origin: testPublicUrl, ...(cookie ? { cookie } : {}) },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

describe('tags', () => {
  it('requires a name and refuses a duplicate', async () => {
    expect((await call('PUT', `/api/admin/tags/${randomUUID()}`, { name: '' })).json().fields).toEqual({ name: 'Debes llenar este campo.' });
    await call('PUT', `/api/admin/tags/${randomUUID()}`, { name: 'Cardiología' });
    const duplicate = await call('PUT', `/api/admin/tags/${randomUUID()}`, { name: 'Cardiología' });
    expect(duplicate.json().fields).toEqual({ name: messages.tagNameTaken });
  });

  it('creates, renames and deletes a tag', async () => {
    const id = randomUUID();
    await call('PUT', `/api/admin/tags/${id}`, { name: 'Neurología' });
    await call('PUT', `/api/admin/tags/${id}`, { name: 'Neurocirugía' });
    expect((await call('GET', `/api/admin/tags/${id}`)).json()).toEqual({ id, name: 'Neurocirugía' });
    expect((await call('DELETE', `/api/admin/tags/${id}`)).statusCode).toBe(200);
    expect((await call('GET', '/api/admin/tags')).json().items.some((tag: { id: string }) => tag.id === id)).toBe(false);
  });
});

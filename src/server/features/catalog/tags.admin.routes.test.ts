import { describe, expect, it } from 'vitest';
import { useConsoleTestApp } from '#server/testing/console-test-app.ts';
import { randomUUID } from 'node:crypto';
import { messages } from '#shared/messages.ts';

const { call } = useConsoleTestApp();

describe('tags', () => {
  it('requires a name and refuses a duplicate', async () => {
    expect((await call('PUT', `/api/admin/tags/${randomUUID()}`, { name: '' })).json().fields).toEqual({
      name: 'Debes llenar este campo.',
    });
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
    expect((await call('GET', '/api/admin/tags')).json().items.some((tag: { id: string }) => tag.id === id)).toBe(
      false,
    );
  });
});

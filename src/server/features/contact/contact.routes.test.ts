import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { randomTestIp } from '#server/testing/factories.ts';
import { failMailWrites } from '#server/testing/failing-mail-store.ts';
import { contactMessages, mailOutbox } from '#server/db/schema/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const post = (payload: object, remoteAddress = randomTestIp()) =>
  t.app.inject({ method: 'POST', url: '/api/contact', remoteAddress, headers: { origin: testPublicUrl }, payload });

describe('POST /api/contact', () => {
  it('names every missing field with the spec message', async () => {
    const response = await post({ name: ' ', email: '', subject: '', message: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      name: 'Debes llenar este campo.',
      email: 'Debes llenar este campo.',
      subject: 'Debes llenar este campo.',
      message: 'Debes llenar este campo.',
    });
  });

  it('checks the e-mail pattern', async () => {
    const response = await post({ name: 'A', email: 'no-es-correo', subject: 'S', message: 'M' });
    expect(response.json().fields).toEqual({ email: 'Introduce un correo válido.' });
  });

  it('stores the message and mails it to the contact address on one subject line', async () => {
    const response = await post({
      name: 'Ana <b>',
      email: 'ana@example.com',
      subject: 'Hola\r\nBcc: x@evil.example',
      message: 'Quiero información',
    });
    expect(response.statusCode).toBe(204);
    const [stored] = await t.db.select().from(contactMessages);
    expect(stored).toMatchObject({ name: 'Ana <b>', email: 'ana@example.com', message: 'Quiero información' });
    const [mail] = await t.db.select().from(mailOutbox);
    expect(mail!.to).toBe('contacto@cxvet.com');
    expect(mail!.subject).not.toMatch(/[\r\n]/);
    expect(mail!.html).toContain('Ana &lt;b&gt;');
  });

  it('keeps neither the message nor its mail when the mail cannot be written, and both once it can (decision 067)', async () => {
    const message = { name: 'Eva', email: 'eva.crash@example.com', subject: 'Cirugía', message: 'Consulta' };
    const storedFromEva = () => t.db.select().from(contactMessages).where(eq(contactMessages.email, message.email));
    const mailsFromEva = async () =>
      (await t.db.select().from(mailOutbox)).filter((mail) => mail.text.includes(message.email));
    const restore = await failMailWrites(t.db);
    try {
      // the writer is told to try again, and no message waits without its mail to the operator
      expect((await post(message)).statusCode).toBe(500);
    } finally {
      await restore();
    }
    expect(await storedFromEva()).toHaveLength(0);
    expect(await mailsFromEva()).toHaveLength(0);

    expect((await post(message)).statusCode).toBe(204);
    expect(await storedFromEva()).toHaveLength(1);
    expect(await mailsFromEva()).toHaveLength(1);
  });

  it('limits how often one address can post', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      statuses.push(
        (await post({ name: 'A', email: 'a@example.com', subject: 'S', message: 'M' }, '10.9.9.9')).statusCode,
      );
    }
    expect(statuses.slice(0, 5)).toEqual([204, 204, 204, 204, 204]);
    expect(statuses.at(-1)).toBe(429);
  });

  it('counts one limit for every instance on the same database (not per process)', async () => {
    const other = await createTestApp({}, { database: t.database });
    try {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 6; attempt++) {
        const app = attempt % 2 === 0 ? t.app : other.app;
        const response = await app.inject({
          method: 'POST',
          url: '/api/contact',
          remoteAddress: '10.8.8.8',
          headers: { origin: testPublicUrl },
          payload: { name: 'A', email: 'a@example.com', subject: 'S', message: 'M' },
        });
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([204, 204, 204, 204, 204, 429]);
    } finally {
      await other.close();
    }
  });
});

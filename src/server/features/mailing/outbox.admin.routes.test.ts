import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '#server/db/schema/index.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('the outbox an Admin reads', () => {
  it('gives each mail its HTML without scripts or handlers, links kept, newest first', async () => {
    await t.db.insert(mailOutbox).values([
      {
        to: 'ana@example.com',
        subject: 'Primero',
        text: 'uno',
        html: '<p>uno</p>',
        createdAt: new Date(Date.now() - 60_000),
      },
      {
        to: 'ana@example.com',
        subject: 'Recupera tu contraseña',
        text: `Abre ${testPublicUrl}/reasignar_password?oobCode=abc`,
        html: `<p style="color:#111">Hola</p><script>alert(1)</script><a href="${testPublicUrl}/reasignar_password?oobCode=abc" onclick="steal()">Asignar</a><a href="javascript:alert(1)">x</a>`,
      },
    ]);
    const { cookie } = await signedInAs(t, { type: 'Admin' });
    const response = await t.app.inject({ url: '/api/admin/outbox?to=ana@example.com', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    const { mails } = response.json() as { mails: { subject: string; html: string }[] };
    expect(mails.map((mail) => mail.subject)).toEqual(['Recupera tu contraseña', 'Primero']);
    const html = mails[0]!.html;
    expect(html).toContain(`href="${testPublicUrl}/reasignar_password?oobCode=abc"`);
    expect(html).toContain('style="color:#111"');
    expect(html).not.toMatch(/script|onclick|javascript:/);
  });

  it('is closed to a guest and to members', async () => {
    expect((await t.app.inject({ url: '/api/admin/outbox' })).statusCode).toBe(401);
    const { cookie } = await signedInAs(t, { type: 'Premium' });
    expect((await t.app.inject({ url: '/api/admin/outbox', headers: { cookie } })).statusCode).toBe(403);
  });
});

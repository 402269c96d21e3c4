import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createUser, signedInAs } from '#server/testing/factories.ts';
import { startSmtpServer, type TestSmtpServer } from '#server/testing/smtp-server.ts';

let smtp: TestSmtpServer;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ smtpUrl: smtp.url });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

// only the bulk mail counts here (a deleted member's last mail is their confirmation)
const bulk = () => smtp.received.filter((mail) => mail.raw.includes('Subject: Novedades de CxVet'));

describe('bulk e-mail over SMTP', () => {
  it('reaches exactly the members who accepted promotional mail, once each, even when the job runs again', async () => {
    const admin = await signedInAs(t, { type: 'Admin', promoMail: false });
    const optedIn = [];
    for (let index = 0; index < 7; index++) {
      optedIn.push((await createUser(t, { email: `promo${index}@example.com`, promoMail: true })).email);
    }
    await createUser(t, { email: 'sin-promo@example.com', promoMail: false });
    await createUser(t, { email: 'deshabilitado@example.com', promoMail: true, isDisabled: true });
    // a member who deleted their account is never mailed again
    const deleted = await signedInAs(t, { email: 'eliminado@example.com', promoMail: true });
    await t.app.services.privacy.anonymize(deleted.user.id, {
      certificates: 'keep',
      actorId: deleted.user.id,
      bySelf: true,
      reason: 'prueba',
    });

    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/mailing',
      headers: { cookie: admin.cookie, origin: testPublicUrl },
      payload: {
        subject: 'Novedades de CxVet',
        title: 'Nuevos videos',
        message: 'Hay cirugías nuevas en el catálogo.',
      },
    });
    expect(response.statusCode).toBe(202);
    await t.app.services.jobs.runDue();
    await t.app.services.jobs.runDue();
    expect(
      bulk()
        .flatMap((mail) => mail.to)
        .sort(),
    ).toEqual(optedIn.sort());
    // RFC 8058: every promotional mail offers the one-click unsubscribe
    expect(bulk()).toHaveLength(optedIn.length);
    for (const { raw: message } of bulk()) {
      expect(message).toMatch(/^List-Unsubscribe: <http:\/\/localhost:3000\/api\/mailing\/unsubscribe\?u=[^>]+>\r?$/m);
      expect(message).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    }
  });
});

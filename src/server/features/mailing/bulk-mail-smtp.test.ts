import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createUser, signedInAs } from '#server/testing/factories.ts';

const recipients: string[] = [];
const messages: string[] = [];
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      // only the bulk mail counts here (a deleted member's last mail is their confirmation)
      if (!raw.includes('Subject: Novedades de CxVet')) return callback();
      // unfold long header lines (RFC 5322)
      messages.push(raw.replace(/\r\n[ \t]+/g, ' '));
      recipients.push(...session.envelope.rcptTo.map((rcpt) => rcpt.address));
      callback();
    });
  },
});
let t: TestApp;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${port}` });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

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
    expect([...recipients].sort()).toEqual(optedIn.sort());
    // RFC 8058: every promotional mail offers the one-click unsubscribe
    expect(messages).toHaveLength(optedIn.length);
    for (const message of messages) {
      expect(message).toMatch(/^List-Unsubscribe: <http:\/\/localhost:3000\/api\/mailing\/unsubscribe\?u=[^>]+>\r?$/m);
      expect(message).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    }
  });
});

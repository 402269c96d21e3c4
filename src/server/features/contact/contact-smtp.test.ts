import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { randomTestIp } from '#server/testing/factories.ts';
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

const post = (payload: object) =>
  t.app.inject({
    method: 'POST',
    url: '/api/contact',
    remoteAddress: randomTestIp(),
    headers: { origin: testPublicUrl },
    payload,
  });
const headersOf = (raw: string) => raw.slice(0, raw.indexOf('\r\n\r\n'));

describe('contact mail over SMTP', () => {
  it("answers to the writer: the operator's 'Reply' goes to their address, not to no-responder", async () => {
    smtp.received.length = 0;
    const response = await post({ name: 'Ana', email: 'ana.vet@example.com', subject: 'Hola', message: 'Info' });
    expect(response.statusCode).toBe(204);
    // the mail leaves through a job the send started (decision 064)
    await t.app.services.jobs.runDue();
    expect(smtp.received).toHaveLength(1);
    expect(headersOf(smtp.received[0]!.raw)).toMatch(/^Reply-To: ana\.vet@example\.com\r?$/m);
    expect(smtp.received[0]!.to).toEqual(['contacto@cxvet.com']);
  });

  it('refuses an address that carries a line break or a second recipient, and sends nothing', async () => {
    smtp.received.length = 0;
    for (const email of [
      'ana@example.com\r\nBcc: todos@evil.example',
      'ana@example.com\nCc: x@evil.example',
      'ana@example.com, otro@evil.example',
    ]) {
      const response = await post({ name: 'Ana', email, subject: 'Hola', message: 'Info' });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toHaveProperty('email');
    }
    expect(smtp.received).toEqual([]);
  });
});

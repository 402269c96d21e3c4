import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { randomTestIp } from '#server/testing/factories.ts';

const received: { raw: string; rcptTo: string[] }[] = [];
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      // unfold long header lines (RFC 5322)
      const raw = Buffer.concat(chunks)
        .toString('utf8')
        .replace(/\r\n[ \t]+/g, ' ');
      received.push({ raw, rcptTo: session.envelope.rcptTo.map((rcpt) => rcpt.address) });
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
    received.length = 0;
    const response = await post({ name: 'Ana', email: 'ana.vet@example.com', subject: 'Hola', message: 'Info' });
    expect(response.statusCode).toBe(204);
    // the mail leaves through a job the send started (decision 064)
    await t.app.services.jobs.runDue();
    expect(received).toHaveLength(1);
    expect(headersOf(received[0]!.raw)).toMatch(/^Reply-To: ana\.vet@example\.com\r?$/m);
    expect(received[0]!.rcptTo).toEqual(['contacto@cxvet.com']);
  });

  it('refuses an address that carries a line break or a second recipient, and sends nothing', async () => {
    received.length = 0;
    for (const email of [
      'ana@example.com\r\nBcc: todos@evil.example',
      'ana@example.com\nCc: x@evil.example',
      'ana@example.com, otro@evil.example',
    ]) {
      const response = await post({ name: 'Ana', email, subject: 'Hola', message: 'Info' });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toHaveProperty('email');
    }
    expect(received).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { createTestDatabase } from '#server/testing/test-app.ts';
import { mailOutbox } from '#server/db/schema/index.ts';
import { createMailer } from './mail.ts';

type Received = { from: string; to: string[]; raw: string };
const received: Received[] = [];
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    let raw = '';
    stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    stream.on('end', () => {
      received.push({
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
        raw,
      });
      callback();
    });
  },
});
let port = 0;
const database = await createTestDatabase();

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await database.close();
  await database.drop();
});

const log = { info() {} };

describe('mailer', () => {
  it('delivers over SMTP when SMTP_URL is set, keeping the outbox empty', async () => {
    const mailer = createMailer({
      db: database.db,
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'CxVet <no-responder@cxvet.com>',
      log,
    });
    await mailer.send({ to: 'ana@example.com', subject: 'Bienvenida a CxVet', html: '<p>Hola</p>', text: 'Hola' });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: 'no-responder@cxvet.com', to: ['ana@example.com'] });
    expect(received[0]!.raw).toContain('Subject: Bienvenida a CxVet');
    expect(await database.db.select().from(mailOutbox)).toHaveLength(0);
  });

  it('keeps every mail in the outbox when no SMTP server is configured', async () => {
    const mailer = createMailer({ db: database.db, from: 'CxVet <no-responder@cxvet.com>', log });
    await mailer.send({ to: 'luis@example.com', subject: 'Prueba', html: '<p>x</p>', text: 'x' });
    const rows = await database.db.select().from(mailOutbox);
    expect(rows.map((row) => [row.to, row.subject])).toEqual([['luis@example.com', 'Prueba']]);
  });
});

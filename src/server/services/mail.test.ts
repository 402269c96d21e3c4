import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '#server/testing/test-app.ts';
import { startSmtpServer, type TestSmtpServer } from '#server/testing/smtp-server.ts';
import { mailOutbox } from '#server/db/schema/index.ts';
import { createMailer } from './mail.ts';

let smtp: TestSmtpServer;
const database = await createTestDatabase();

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
  await database.close();
  await database.drop();
});

const log = { info() {} };

describe('mailer', () => {
  it('delivers over SMTP when SMTP_URL is set, keeping the outbox empty', async () => {
    const mailer = createMailer({
      db: database.db,
      smtpUrl: smtp.url,
      from: 'CxVet <no-responder@cxvet.com>',
      log,
    });
    await mailer.send({ to: 'ana@example.com', subject: 'Bienvenida a CxVet', html: '<p>Hola</p>', text: 'Hola' });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toMatchObject({ from: 'no-responder@cxvet.com', to: ['ana@example.com'] });
    expect(smtp.received[0]!.raw).toContain('Subject: Bienvenida a CxVet');
    expect(await database.db.select().from(mailOutbox)).toHaveLength(0);
  });

  it('keeps every mail in the outbox when no SMTP server is configured', async () => {
    const mailer = createMailer({ db: database.db, from: 'CxVet <no-responder@cxvet.com>', log });
    await mailer.send({ to: 'luis@example.com', subject: 'Prueba', html: '<p>x</p>', text: 'x' });
    const rows = await database.db.select().from(mailOutbox);
    expect(rows.map((row) => [row.to, row.subject])).toEqual([['luis@example.com', 'Prueba']]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '#server/testing/test-app.ts';
import { startSmtpServer, type TestSmtpServer } from '#server/testing/smtp-server.ts';
import { eq } from 'drizzle-orm';
import { contactMessages, jobs, mailOutbox } from '#server/db/schema/index.ts';
import {
  createMailer,
  createQueuedMailer,
  mailJobKind,
  type MailMessage,
  type MailTransport,
  type QueuedMailer,
} from './mail.ts';

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

describe('mail queued in the transaction of the write it follows from (decision 067)', () => {
  const smtpTransport: MailTransport = { external: true, send: async () => {} };
  const outboxTransport = createMailer({ db: database.db, from: 'CxVet <no-responder@cxvet.com>', log });
  const mail = (to: string): MailMessage => ({ to, subject: 'Aviso', html: '<p>x</p>', text: 'x' });
  const waiting = (to: string) =>
    database.db
      .select()
      .from(jobs)
      .where(eq(jobs.kind, mailJobKind))
      .then((rows) => rows.filter((row) => (row.payload as MailMessage).to === to));
  const outboxed = (to: string) => database.db.select().from(mailOutbox).where(eq(mailOutbox.to, to));
  const stored = (email: string) => database.db.select().from(contactMessages).where(eq(contactMessages.email, email));
  /** A write of ours and its mail in one transaction; `beforeCommit` runs after the mail is queued. */
  const writeAndMail = (mailer: QueuedMailer, email: string, beforeCommit: () => void) =>
    mailer.transaction(async (tx, queue) => {
      await tx.insert(contactMessages).values({ name: 'Ana', email, subject: 'S', message: 'M' });
      await queue(mail(email));
      beforeCommit();
    });
  const crash = () => {
    throw new Error('simulated crash');
  };

  it('through SMTP, leaves neither the write nor the job and starts no runner when the transaction rolls back', async () => {
    let kicks = 0;
    const mailer = createQueuedMailer({ db: database.db, transport: smtpTransport, kick: () => kicks++ });
    await expect(writeAndMail(mailer, 'rolled.back@example.com', crash)).rejects.toThrow('simulated crash');
    expect(await stored('rolled.back@example.com')).toHaveLength(0);
    expect(await waiting('rolled.back@example.com')).toHaveLength(0);
    expect(kicks).toBe(0);
  });

  it('through SMTP, commits the job with the write and starts the runner only after the commit', async () => {
    let kicks = 0;
    const mailer = createQueuedMailer({ db: database.db, transport: smtpTransport, kick: () => kicks++ });
    // another connection could not see the job before the commit: the runner would find nothing to send
    await writeAndMail(mailer, 'committed@example.com', () => expect(kicks).toBe(0));
    expect(kicks).toBe(1);
    expect(await stored('committed@example.com')).toHaveLength(1);
    expect(await waiting('committed@example.com')).toHaveLength(1);
  });

  it('without SMTP, writes the outbox row in the transaction: none after a rollback, one after the commit', async () => {
    let kicks = 0;
    const mailer = createQueuedMailer({ db: database.db, transport: outboxTransport, kick: () => kicks++ });
    await expect(writeAndMail(mailer, 'outbox.rolled.back@example.com', crash)).rejects.toThrow('simulated crash');
    expect(await stored('outbox.rolled.back@example.com')).toHaveLength(0);
    expect(await outboxed('outbox.rolled.back@example.com')).toHaveLength(0);

    await writeAndMail(mailer, 'outbox@example.com', () => {});
    expect(await stored('outbox@example.com')).toHaveLength(1);
    expect(await outboxed('outbox@example.com')).toHaveLength(1);
    // the outbox has no job to start
    expect(kicks).toBe(0);
  });
});

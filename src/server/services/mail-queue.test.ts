import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { createTestApp, createTestDatabase, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createUser, randomTestIp } from '#server/testing/factories.ts';
import { contactMessages, jobs } from '#server/db/schema/index.ts';
import { startSmtpServer, type TestSmtpServer } from '#server/testing/smtp-server.ts';
import { failMailWrites } from '#server/testing/failing-mail-store.ts';
import { privacyJobKinds } from '#server/features/privacy/privacy.jobs.ts';
import { mailAttempts, mailJobKind } from './mail.ts';

// an SMTP server that takes mail, or refuses it for a while as a server in trouble does (451, try again later)
let smtp: TestSmtpServer;
let t: TestApp;
const logLines: string[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  t = await createTestApp({ smtpUrl: smtp.url, logLevel: 'info' }, undefined, { logStream });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const contact = (email: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/contact',
    remoteAddress: randomTestIp(),
    headers: { origin: testPublicUrl },
    payload: { name: 'Ana', email, subject: 'Hola', message: 'Quiero información' },
  });
const mailJobs = () => t.db.select().from(jobs).where(eq(jobs.kind, mailJobKind));
/** The retry's time has come (the runner waits 30 s and more after a failure). */
const retryNow = () =>
  t.db
    .update(jobs)
    .set({ runAt: sql`now()` })
    .where(and(eq(jobs.kind, mailJobKind), sql`done_at is null`));

describe('mail through SMTP leaves through a job (decision 064)', () => {
  it('is sent at once, without waiting for the next poll, and keeps no body once sent', async () => {
    smtp.received.length = 0;
    expect((await contact('ana.at.once@example.com')).statusCode).toBe(204);
    // the test app's runner does not poll: only the send itself can have started the job
    await vi.waitFor(() => expect(smtp.received).toHaveLength(1), { timeout: 5_000 });
    // the job is marked done once the server has answered: wait for the pass under way
    await t.app.services.jobs.runDue();
    expect(smtp.received[0]!.raw).toContain('Reply-To: ana.at.once@example.com');
    const [job] = (await mailJobs()).filter((row) => row.doneAt !== null);
    expect(job).toBeDefined();
    // a reset link or an export link is not kept for the week a done job is
    expect(job!.payload).toEqual({});
  });

  it('answers the action while the SMTP server refuses mail, and sends the mail once when it takes mail again', async () => {
    smtp.received.length = 0;
    smtp.refuse(true);
    const response = await contact('luis.later@example.com');
    // before, the 451 reached the writer as a 500 after the message had been stored
    expect(response.statusCode).toBe(204);
    await t.app.services.jobs.runDue();
    const [waiting] = (await mailJobs()).filter((row) => row.doneAt === null);
    expect(waiting).toMatchObject({ attempts: 1 });
    expect(waiting!.lastError).toMatch(/451|Servicio no disponible/);
    expect(smtp.received).toHaveLength(0);
    // the server's answer named the recipient; neither the job's error nor the log keeps the address
    expect(waiting!.lastError).toContain('<dirección>');
    expect(waiting!.lastError).not.toContain('@');
    expect(logLines.some((line) => line.includes('job failed'))).toBe(true);
    expect(logLines.filter((line) => line.includes('@'))).toEqual([]);

    smtp.refuse(false);
    await retryNow();
    await t.app.services.jobs.runDue();
    await t.app.services.jobs.runDue();
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.raw).toContain('Reply-To: luis.later@example.com');
    expect((await mailJobs()).filter((row) => row.doneAt === null)).toHaveLength(0);
  });

  it("drops a deleted member's mail still waiting for the server, and sends only the deletion's notice", async () => {
    smtp.received.length = 0;
    const member = await createUser(t, { email: 'borrada@example.com', name: 'Marta' });
    smtp.refuse(true);
    await t.app.services.membership.sendAccountMail(member, 'SIGNUP', null);
    // and a message she wrote through the contact form, whose 'Reply' goes to her address
    expect((await contact('borrada@example.com')).statusCode).toBe(204);
    await t.app.services.jobs.runDue();
    expect((await mailJobs()).filter((row) => row.doneAt === null)).toHaveLength(2);

    smtp.refuse(false);
    await t.app.services.privacy.anonymize(member.id, {
      certificates: 'keep',
      actorId: null,
      bySelf: false,
      reason: 'prueba',
    });
    await retryNow();
    await t.app.services.jobs.runDue();
    await t.app.services.jobs.runDue();
    // neither mail queued before the deletion left; the deletion's notice did
    expect(smtp.received.map((mail) => mail.to)).toEqual([['borrada@example.com']]);
    expect(smtp.received[0]!.raw).not.toContain('Bienvenid');
  });

  it('stores no contact message whose mail job cannot be written, and starts no runner (decision 067)', async () => {
    smtp.received.length = 0;
    const before = (await mailJobs()).length;
    const restore = await failMailWrites(t.db);
    try {
      expect((await contact('sin.trabajo@example.com')).statusCode).toBe(500);
    } finally {
      await restore();
    }
    expect(
      await t.db.select().from(contactMessages).where(eq(contactMessages.email, 'sin.trabajo@example.com')),
    ).toHaveLength(0);
    expect(await mailJobs()).toHaveLength(before);
    await t.app.services.jobs.runDue();
    expect(smtp.received).toHaveLength(0);
  });

  it("sends the deletion's notice once when its job fails after queuing it, or runs again after it (decision 067)", async () => {
    smtp.received.length = 0;
    const member = await createUser(t, { email: 'aviso.unico@example.com', name: 'Rosa' });
    const [last] = await t.db.select({ id: jobs.id }).from(jobs).orderBy(desc(jobs.id)).limit(1);
    const noticeJobs = and(eq(jobs.kind, privacyJobKinds.mail), gt(jobs.id, last!.id));
    const runNoticeAgain = async () => {
      await t.db
        .update(jobs)
        .set({ doneAt: null, lockedUntil: null, runAt: sql`now()` })
        .where(noticeJobs);
      await t.app.services.jobs.runDue();
      await t.app.services.jobs.runDue();
    };
    // the notice's job dies just after queuing the mail: its job cannot forget the address
    await t.db.execute(
      sql`create function fail_notice_job() returns trigger language plpgsql as $$ begin raise exception 'simulated crash'; end $$`,
    );
    await t.db.execute(
      sql`create trigger fail_notice_job before update on jobs for each row when (old.kind = 'privacy.mail' and old.payload ? 'to' and not new.payload ? 'to') execute function fail_notice_job()`,
    );
    try {
      await t.app.services.privacy.anonymize(member.id, {
        certificates: 'keep',
        actorId: null,
        bySelf: false,
        reason: 'prueba',
      });
      await t.app.services.jobs.runDue();
      await t.app.services.jobs.runDue();
    } finally {
      await t.db.execute(sql`drop trigger fail_notice_job on jobs`);
      await t.db.execute(sql`drop function fail_notice_job()`);
    }
    // before, the mail had left, and the job's retry sent it a second time
    expect(smtp.received).toHaveLength(0);
    await runNoticeAgain();
    expect(smtp.received.map((mail) => mail.to)).toEqual([['aviso.unico@example.com']]);

    // the instance stopped after the notice was queued, before the runner marked its job done
    await runNoticeAgain();
    expect(smtp.received).toHaveLength(1);
    const [notice] = await t.db.select().from(jobs).where(noticeJobs);
    expect(notice).toMatchObject({ lastError: null });
    expect(notice!.doneAt).not.toBeNull();
  });

  it('ends a mail the server refuses for good (550) at once, keeping the reason and not the message', async () => {
    smtp.received.length = 0;
    smtp.refuse(550);
    const before = (await mailJobs()).map((row) => row.id);
    expect((await contact('nadie.aqui@example.com')).statusCode).toBe(204);
    await t.app.services.jobs.runDue();
    const [ended] = (await mailJobs()).filter((row) => !before.includes(row.id));
    smtp.refuse(false);
    // before, it waited an hour and was refused again, every hour, for ever
    expect(ended).toMatchObject({ attempts: 1, payload: {} });
    expect(ended!.doneAt).not.toBeNull();
    expect(ended!.lastError).toMatch(/550|Buzón inexistente/);
    expect(ended!.lastError).not.toContain('@');
    expect(logLines.some((line) => line.includes('job abandoned'))).toBe(true);
    await retryNow();
    await t.app.services.jobs.runDue();
    expect(smtp.received).toHaveLength(0);
  });

  it(`ends a mail the server keeps putting off after ${mailAttempts} tries`, async () => {
    smtp.received.length = 0;
    smtp.refuse(451);
    const before = (await mailJobs()).map((row) => row.id);
    expect((await contact('siempre.luego@example.com')).statusCode).toBe(204);
    await t.app.services.jobs.runDue();
    const [job] = (await mailJobs()).filter((row) => !before.includes(row.id));
    expect(job).toMatchObject({ attempts: 1, doneAt: null });
    // the tries of two days, all refused: the next is the last
    await t.db
      .update(jobs)
      .set({ attempts: mailAttempts - 1, runAt: sql`now()` })
      .where(eq(jobs.id, job!.id));
    await t.app.services.jobs.runDue();
    const [ended] = await t.db.select().from(jobs).where(eq(jobs.id, job!.id));
    smtp.refuse(false);
    expect(ended).toMatchObject({ attempts: mailAttempts, payload: {} });
    expect(ended!.doneAt).not.toBeNull();
    expect(ended!.lastError).toContain(`${mailAttempts} tries`);
    expect(smtp.received).toHaveLength(0);
  });
});

describe('a mail queued before a restart', () => {
  it('is sent once by the app that starts after it', async () => {
    const database = await createTestDatabase();
    const server = await startSmtpServer();
    try {
      server.refuse(true);
      const before = await createTestApp({ smtpUrl: server.url }, { database });
      const member = await createUser(before, { email: 'tras.reinicio@example.com' });
      await before.app.services.membership.sendAccountMail(member, 'SIGNUP', null);
      await before.app.services.jobs.runDue();
      await before.close();
      const [waiting] = await database.db.select().from(jobs).where(eq(jobs.kind, mailJobKind));
      expect(waiting).toMatchObject({ attempts: 1, doneAt: null });

      server.refuse(false);
      const after = await createTestApp({ smtpUrl: server.url }, { database });
      try {
        await database.db
          .update(jobs)
          .set({ runAt: sql`now()` })
          .where(eq(jobs.id, waiting!.id));
        await after.app.services.jobs.runDue();
        await after.app.services.jobs.runDue();
        expect(server.received.map((mail) => mail.to)).toEqual([['tras.reinicio@example.com']]);
        const [sent] = await database.db.select().from(jobs).where(eq(jobs.id, waiting!.id));
        expect(sent).toMatchObject({ attempts: 2, payload: {} });
        expect(sent!.doneAt).not.toBeNull();
      } finally {
        await after.close();
      }
    } finally {
      await server.close();
      await database.close();
      await database.drop();
    }
  });
});

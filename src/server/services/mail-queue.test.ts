import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createUser, randomTestIp } from '#server/testing/factories.ts';
import { jobs } from '#server/db/schema/index.ts';
import { mailJobKind } from './mail.ts';

// an SMTP server that takes mail, or refuses it for a while as a server in trouble does (451, try again later)
const received: { to: string[]; raw: string }[] = [];
let refusing = false;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    let raw = '';
    stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    stream.on('end', () => {
      if (refusing) return callback(Object.assign(new Error('Servicio no disponible'), { responseCode: 451 }));
      received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw });
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
    received.length = 0;
    expect((await contact('ana.at.once@example.com')).statusCode).toBe(204);
    // the job was started by the send itself; runDue waits for the pass under way
    await t.app.services.jobs.runDue();
    expect(received).toHaveLength(1);
    expect(received[0]!.raw).toContain('Reply-To: ana.at.once@example.com');
    const [job] = (await mailJobs()).filter((row) => row.doneAt !== null);
    expect(job).toBeDefined();
    // a reset link or an export link is not kept for the week a done job is
    expect(job!.payload).toEqual({});
  });

  it('answers the action while the SMTP server refuses mail, and sends the mail once when it takes mail again', async () => {
    received.length = 0;
    refusing = true;
    const response = await contact('luis.later@example.com');
    // before, the 451 reached the writer as a 500 after the message had been stored
    expect(response.statusCode).toBe(204);
    await t.app.services.jobs.runDue();
    const [waiting] = (await mailJobs()).filter((row) => row.doneAt === null);
    expect(waiting).toMatchObject({ attempts: 1 });
    expect(waiting!.lastError).toMatch(/451|Servicio no disponible/);
    expect(received).toHaveLength(0);

    refusing = false;
    await retryNow();
    await t.app.services.jobs.runDue();
    await t.app.services.jobs.runDue();
    expect(received).toHaveLength(1);
    expect(received[0]!.raw).toContain('Reply-To: luis.later@example.com');
    expect((await mailJobs()).filter((row) => row.doneAt === null)).toHaveLength(0);
  });

  it("drops a deleted member's mail still waiting for the server, and sends only the deletion's notice", async () => {
    received.length = 0;
    const member = await createUser(t, { email: 'borrada@example.com', name: 'Marta' });
    refusing = true;
    await t.app.services.membership.sendAccountMail(member, 'SIGNUP', null);
    // and a message she wrote through the contact form, whose 'Reply' goes to her address
    expect((await contact('borrada@example.com')).statusCode).toBe(204);
    await t.app.services.jobs.runDue();
    expect((await mailJobs()).filter((row) => row.doneAt === null)).toHaveLength(2);

    refusing = false;
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
    expect(received.map((mail) => mail.to)).toEqual([['borrada@example.com']]);
    expect(received[0]!.raw).not.toContain('Bienvenid');
  });
});

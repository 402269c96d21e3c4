import type { Transporter } from 'nodemailer';
import type { Log } from '#server/services/log.ts';
import type { Db } from '#server/db/client.ts';
import { jobs, mailOutbox } from '#server/db/schema/index.ts';
import { JobAbandoned } from '#server/services/jobs.ts';

export type MailMessage = {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** One address the recipient's 'Reply' goes to (a visitor's, on contact mail). */
  replyTo?: string;
  headers?: Record<string, string>;
};

/** A single address with no line break or list separator: a visitor's value must not add recipients or headers. */
export function isSingleAddress(address: string): boolean {
  return /^[^\s,;<>"]+@[^\s,;<>"]+$/.test(address);
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** How the mail leaves: `external` when it goes to an SMTP server (which can be down), not to our own table. */
export type MailTransport = Mailer & { external: boolean };

/** SMTP when configured; otherwise every mail goes to the outbox table so links work offline. */
export function createMailer(options: {
  db: Db;
  smtpUrl?: string;
  from: string;
  log: Pick<Log, 'info'>;
}): MailTransport {
  const { db, smtpUrl, from, log } = options;
  if (smtpUrl) {
    // nodemailer loads with the first mail sent, and only when SMTP is configured (start time, idle memory)
    let transport: Promise<Transporter> | undefined;
    const connect = async () => (await import('nodemailer')).default.createTransport(smtpUrl);
    return {
      external: true,
      async send(message) {
        if (message.replyTo !== undefined && !isSingleAddress(message.replyTo)) throw new Error('invalid Reply-To');
        transport ??= connect();
        await (await transport).sendMail({ from, ...message });
        log.info({ subject: message.subject }, 'mail sent');
      },
    };
  }
  return {
    external: false,
    async send(message) {
      await storeInOutbox(db, message);
      log.info({ subject: message.subject }, 'mail stored in outbox');
    },
  };
}

/** The outbox row of one mail, written by `executor` (the database, or the transaction the mail follows from). */
async function storeInOutbox(executor: Db, { to, subject, html, text }: MailMessage) {
  await executor.insert(mailOutbox).values({ to, subject, html, text });
}

/** The job that hands one queued mail to the SMTP server; its payload is the message, emptied once sent. */
export const mailJobKind = 'mail.send';

/** Writes one mail in the transaction handed out with it (`QueuedMailer.transaction`). */
export type QueueMail = (message: MailMessage) => Promise<void>;

/** The mail of a member's own actions and of payments, as `createQueuedMailer` makes it. */
export interface QueuedMailer extends Mailer {
  /**
   * Runs fn in one transaction of the database; a mail handed to `queue` is written in it, so the write it follows
   * from and the mail commit together or not at all, and the mail job starts only once it has committed (decision 067).
   */
  transaction<T>(fn: (tx: Db, queue: QueueMail) => Promise<T>): Promise<T>;
}

/**
 * The mail of a member's own actions and of payments (decision 064). Through SMTP it is queued in the jobs table and
 * sent by a job, started at once (`kick`): an SMTP server that is down or slow neither fails nor holds the action
 * that sent it, and the job retries until the mail is accepted. Without SMTP it is a row of the outbox table. Mail
 * that follows a write of ours is queued in that write's transaction (`transaction`, decision 067); `send` is for
 * mail that follows none.
 */
export function createQueuedMailer(deps: { db: Db; transport: MailTransport; kick: () => void }): QueuedMailer {
  const { db, transport, kick } = deps;

  async function queue(executor: Db, message: MailMessage) {
    if (message.replyTo !== undefined && !isSingleAddress(message.replyTo)) throw new Error('invalid Reply-To');
    if (transport.external) await executor.insert(jobs).values({ kind: mailJobKind, payload: message });
    else await storeInOutbox(executor, message);
  }

  return {
    async send(message) {
      if (!transport.external) return await transport.send(message);
      await queue(db, message);
      kick();
    },
    async transaction(fn) {
      let queued = false;
      const result = await db.transaction(async (tx) => {
        const executor = tx as unknown as Db;
        return fn(executor, async (message) => {
          await queue(executor, message);
          queued = true;
        });
      });
      // only now can another connection see the job; a rolled-back transaction never gets here
      if (queued && transport.external) kick();
      return result;
    },
  };
}

/** An address an SMTP answer may quote ("550 5.1.1 <ana@example.com>: Recipient address rejected"). */
const quotedAddress = /[^\s<>"',;:()[\]]+@[^\s<>"',;:()[\]]+/g;

/**
 * How many times a mail the server puts off (4xx, or no answer) is tried: about two days, as the runner waits 1, 2,
 * 4… minutes and then an hour between tries. A link in it has expired by then, and the log has said so every hour.
 */
export const mailAttempts = 50;

/**
 * The `mail.send` job: hands one queued mail to the transport. A refusal is thrown again without the addresses its
 * text may quote, so neither the log nor the job's `last_error` holds one (the log holds no e-mail address). A
 * permanent refusal (5xx: no such mailbox) ends the job at once, and a temporary one after `mailAttempts` tries:
 * neither is tried hourly for ever.
 */
export async function sendQueuedMail(
  transport: Mailer,
  message: MailMessage,
  run: { attempts: number },
): Promise<void> {
  try {
    await transport.send(message);
  } catch (error) {
    const text = (error instanceof Error ? error.message : String(error)).replace(quotedAddress, '<dirección>');
    // nodemailer's SMTP errors carry the server's reply code
    const code = (error as { responseCode?: unknown }).responseCode;
    if (typeof code === 'number' && code >= 500 && code < 600) throw new JobAbandoned(text);
    if (run.attempts >= mailAttempts) throw new JobAbandoned(`${text} (${run.attempts} tries)`);
    throw new Error(text);
  }
}

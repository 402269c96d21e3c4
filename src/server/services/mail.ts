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
    async send({ to, subject, html, text }) {
      await db.insert(mailOutbox).values({ to, subject, html, text });
      log.info({ subject }, 'mail stored in outbox');
    },
  };
}

/** The job that hands one queued mail to the SMTP server; its payload is the message, emptied once sent. */
export const mailJobKind = 'mail.send';

/**
 * The mail of a member's own actions and of payments (decision 064). Through SMTP it is queued in the jobs table and
 * sent by a job, started at once (`kick`): the action that sent it has already been written, so an SMTP server that
 * is down or slow neither fails nor holds that action, and the job retries until the mail is accepted. To the outbox
 * table it is written at once, as before: that is a write of our own database.
 */
export function createQueuedMailer(deps: { db: Db; transport: MailTransport; kick: () => void }): Mailer {
  const { db, transport, kick } = deps;
  if (!transport.external) return transport;
  return {
    async send(message) {
      if (message.replyTo !== undefined && !isSingleAddress(message.replyTo)) throw new Error('invalid Reply-To');
      await db.insert(jobs).values({ kind: mailJobKind, payload: message });
      kick();
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

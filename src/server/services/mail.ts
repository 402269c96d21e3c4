import type { Transporter } from 'nodemailer';
import type { Log } from '#server/services/log.ts';
import type { Db } from '#server/db/client.ts';
import { mailOutbox } from '#server/db/schema/index.ts';

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

/** SMTP when configured; otherwise every mail goes to the outbox table so links work offline. */
export function createMailer(options: { db: Db; smtpUrl?: string; from: string; log: Pick<Log, 'info'> }): Mailer {
  const { db, smtpUrl, from, log } = options;
  if (smtpUrl) {
    // nodemailer loads with the first mail sent, and only when SMTP is configured (start time, idle memory)
    let transport: Promise<Transporter> | undefined;
    const connect = async () => (await import('nodemailer')).default.createTransport(smtpUrl);
    return {
      async send(message) {
        if (message.replyTo !== undefined && !isSingleAddress(message.replyTo)) throw new Error('invalid Reply-To');
        transport ??= connect();
        await (await transport).sendMail({ from, ...message });
        log.info({ subject: message.subject }, 'mail sent');
      },
    };
  }
  return {
    async send({ to, subject, html, text }) {
      await db.insert(mailOutbox).values({ to, subject, html, text });
      log.info({ subject }, 'mail stored in outbox');
    },
  };
}

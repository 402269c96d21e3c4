import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { bulkMailDeliveries, bulkMails, users } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import type { Mailer } from '#server/services/mail.ts';
import type { UploadsService } from '#server/features/uploads/uploads.service.ts';
import { escapeHtml, layoutMail } from '#server/services/mail-layout.ts';
import { mediaUrl } from '#server/services/media-url.ts';
import type { ConsentsService } from '#server/features/privacy/consents.service.ts';
import { messages } from '#shared/messages.ts';

const batchSize = 50;
const maxAttempts = 5;

type BulkMail = typeof bulkMails.$inferSelect;

/**
 * Bulk e-mail to members who accepted promotional mail. A delivery row per recipient is marked
 * before sending, so a restart never mails anyone twice (a send cut off mid-way is not retried).
 */
export function createMailingService(deps: {
  db: Db;
  mailer: Mailer;
  uploads: UploadsService;
  publicUrl: string;
  secret: string;
  consents?: ConsentsService;
  enqueue: (bulkMailId: string) => Promise<void>;
}) {
  const { db, mailer, uploads, publicUrl, secret } = deps;

  const unsubscribeToken = (userId: string) =>
    createHmac('sha256', secret).update(`unsubscribe:${userId}`).digest('base64url');

  function unsubscribeUrl(userId: string): string {
    const url = new URL('/api/mailing/unsubscribe', publicUrl);
    url.searchParams.set('u', userId);
    url.searchParams.set('t', unsubscribeToken(userId));
    return url.toString();
  }

  /** Stores the record, lists its recipients and queues the sending; returns at once. */
  async function create(
    input: { subject: string; title: string; message: string; image: string | null },
    adminId: string,
  ) {
    // the image must be an unsaved upload of this form; saving claims it so the pending sweep keeps it
    if (
      input.image &&
      (!input.image.startsWith('bulk_email_imgs/') || !(await uploads.isPending(input.image, 'image')))
    ) {
      throw new AppError('VALIDATION', { fields: { image: messages.invalidFileFormat } });
    }
    if (input.image) await uploads.claim([input.image]);
    const [record] = await db
      .insert(bulkMails)
      .values({
        subject: input.subject,
        title: input.title,
        message: input.message,
        image: input.image,
        createdBy: adminId,
      })
      .returning();
    const inserted = await db.execute(sql`
      insert into ${bulkMailDeliveries} (bulk_mail_id, user_id, email)
      select ${record!.id}, ${users.id}, ${users.email} from ${users} where ${users.promoMail} and not ${users.isDisabled} and ${users.anonymizedAt} is null`);
    const recipients = Number(
      (inserted as { affectedRows?: number; rowCount?: number }).affectedRows ??
        (inserted as { rowCount?: number }).rowCount ??
        0,
    );
    await db.update(bulkMails).set({ recipientCount: recipients }).where(eq(bulkMails.id, record!.id));
    await deps.enqueue(record!.id);
    return { id: record!.id, recipients };
  }

  function render(record: BulkMail, userId: string) {
    const image = mediaUrl(record.image);
    const paragraphs = record.message
      .split(/\n+/)
      .filter((line) => line.trim())
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .join('\n');
    const unsubscribe = unsubscribeUrl(userId);
    return {
      subject: record.subject,
      text: `${record.title}\n\n${record.message}\n\nPara dejar de recibir estos correos: ${unsubscribe}`,
      html: layoutMail(
        record.title,
        `${image ? `<p><img src="${escapeHtml(publicUrl + image)}" alt="${escapeHtml(record.title)}" style="max-width:100%"></p>` : ''}
${paragraphs}
<p style="font-size:12px"><a href="${escapeHtml(unsubscribe)}">Dejar de recibir correos promocionales</a></p>`,
      ),
      // RFC 8058: mail clients offer a one-click button that POSTs to the link, no sign-in needed
      headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    };
  }

  /** Claims a batch: marks the attempt first, so a crash after sending never leads to a second mail. */
  async function claimBatch(bulkMailId: string) {
    const result = await db.execute<{ user_id: string; email: string }>(sql`
      update ${bulkMailDeliveries} set attempts = attempts + 1, last_error = null
      where bulk_mail_id = ${bulkMailId} and user_id in (
        select user_id from ${bulkMailDeliveries}
        where bulk_mail_id = ${bulkMailId} and sent_at is null
          and (attempts = 0 or (last_error is not null and attempts < ${maxAttempts}))
        order by user_id
        limit ${batchSize}
        for update skip locked
      )
      returning user_id, email`);
    return (Array.isArray(result) ? result : (result as { rows: { user_id: string; email: string }[] }).rows) as {
      user_id: string;
      email: string;
    }[];
  }

  /** The queued job: sends batch after batch; throws while failed deliveries may still be retried. */
  async function send(bulkMailId: string): Promise<void> {
    const [record] = await db.select().from(bulkMails).where(eq(bulkMails.id, bulkMailId));
    if (!record) return;
    for (;;) {
      const batch = await claimBatch(bulkMailId);
      if (batch.length === 0) break;
      for (const recipient of batch) {
        const where = and(
          eq(bulkMailDeliveries.bulkMailId, bulkMailId),
          eq(bulkMailDeliveries.userId, recipient.user_id),
        );
        try {
          await mailer.send({ to: recipient.email, ...render(record, recipient.user_id) });
          await db.update(bulkMailDeliveries).set({ sentAt: new Date() }).where(where);
        } catch (error) {
          await db
            .update(bulkMailDeliveries)
            .set({ lastError: error instanceof Error ? error.message.slice(0, 500) : 'error' })
            .where(where);
        }
      }
    }
    const [retryable] = await db
      .select({ userId: bulkMailDeliveries.userId })
      .from(bulkMailDeliveries)
      .where(
        and(
          eq(bulkMailDeliveries.bulkMailId, bulkMailId),
          isNull(bulkMailDeliveries.sentAt),
          sql`${bulkMailDeliveries.lastError} is not null and ${bulkMailDeliveries.attempts} < ${maxAttempts}`,
        ),
      )
      .limit(1);
    if (retryable) throw new Error('some deliveries failed and will be retried');
    await db.update(bulkMails).set({ finishedAt: new Date() }).where(eq(bulkMails.id, bulkMailId));
  }

  /** Whether the link's token was signed by us for that member. */
  function isUnsubscribeLink(userId: string, token: string): boolean {
    const expected = Buffer.from(unsubscribeToken(userId));
    const given = Buffer.from(token);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /** The link in every mail: turns promotional mail off for that member. */
  async function unsubscribe(userId: string, token: string): Promise<void> {
    if (!isUnsubscribeLink(userId, token)) throw new AppError('UNSUBSCRIBE_LINK_INVALID');
    await db.transaction(async (tx) => {
      const [before] = await tx
        .select({ promoMail: users.promoMail, newsMail: users.newsMail })
        .from(users)
        .where(eq(users.id, userId))
        .for('update');
      if (!before) return;
      await tx.update(users).set({ promoMail: false }).where(eq(users.id, userId));
      await deps.consents?.record(userId, before, { ...before, promoMail: false }, 'enlace de baja', tx);
    });
  }

  return { create, send, isUnsubscribeLink, unsubscribe, unsubscribeUrl };
}

export type MailingService = ReturnType<typeof createMailingService>;

import { eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { paymentWebhookEvents } from '#server/db/schema/index.ts';

type StoredEvent = typeof paymentWebhookEvents.$inferSelect;

/**
 * The job of every provider's notifications: applies one stored event with `apply` (which reads back what the event
 * names), and only then marks it processed; a failure is kept on the row and thrown, so the job retries. Running it
 * twice (a crash after applying, a retry) changes nothing more.
 */
export async function applyStoredEvent(
  db: Db,
  eventId: string,
  apply: (row: StoredEvent) => Promise<void>,
  onFailure: (error: unknown, row: StoredEvent) => void,
): Promise<'applied' | 'already'> {
  const [row] = await db.select().from(paymentWebhookEvents).where(eq(paymentWebhookEvents.id, eventId));
  if (!row || row.processedAt) return 'already';
  try {
    await apply(row);
  } catch (error) {
    onFailure(error, row);
    await db
      .update(paymentWebhookEvents)
      .set({ error: error instanceof Error ? error.message.slice(0, 500) : String(error) })
      .where(eq(paymentWebhookEvents.id, eventId));
    throw error;
  }
  await db
    .update(paymentWebhookEvents)
    .set({ processedAt: new Date(), error: null })
    .where(eq(paymentWebhookEvents.id, eventId));
  return 'applied';
}

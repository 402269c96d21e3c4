import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { payments } from '#server/db/schema/index.ts';

/**
 * Told the payments (our ids) the provider reports refunded, each time they are read and all of a reading at once (the
 * listener decides what is new).
 */
export type RefundListener = (paymentIds: string[]) => Promise<void>;

/**
 * Writes what the provider says of its payments into the history: one row per provider payment id, a later state
 * replacing the result. Each refunded one is told to `onRefunded` on every reading, so a step lost to a crash after
 * this write is taken at the next webhook or reconciliation.
 */
export async function recordProviderPayments(
  db: Db,
  rows: (typeof payments.$inferInsert)[],
  onRefunded?: RefundListener,
): Promise<void> {
  if (rows.length === 0) return;
  const written = await db
    .insert(payments)
    .values(rows)
    .onConflictDoUpdate({ target: payments.providerPaymentId, set: { result: sql`excluded.result` } })
    .returning({ id: payments.id, result: payments.result });
  const refunded = written.filter((row) => row.result === 'REEMBOLSADO').map((row) => row.id);
  if (refunded.length > 0) await onRefunded?.(refunded);
}

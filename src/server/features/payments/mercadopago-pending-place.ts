import type { Db } from '#server/db/client.ts';
import { paymentOrders } from '#server/db/schema/index.ts';

/**
 * Takes the member's one pending payment in pesos for `reference` (payment_orders_one_pending_idx) under a
 * placeholder id, before Mercado Pago is asked for anything; null when another request of the member holds it.
 */
export async function takePendingPlace(
  db: Db,
  userId: string,
  input: { amountCents: number; description: string; reference: string },
  placeholderId: string,
): Promise<{ id: string } | null> {
  const [row] = await db
    .insert(paymentOrders)
    .values({
      userId,
      provider: 'mercadopago',
      providerOrderId: placeholderId,
      amountCents: input.amountCents,
      currency: 'MXN',
      description: input.description,
      reference: input.reference,
      status: 'PENDING',
    })
    .onConflictDoNothing()
    .returning({ id: paymentOrders.id });
  return row ?? null;
}

import type { Db } from '#server/db/client.ts';
import { eq } from 'drizzle-orm';
import { diplomaTransactions, diplomas as diplomaTable } from '#server/db/schema/index.ts';
import type { OrderEvent } from '#server/features/payments/payments-orders.ts';
import { AppError } from '#shared/errors.ts';
import type { OfflinePayment } from '#shared/payments/mercadopago.schemas.ts';
import type { MercadoPagoPaymentsService } from '#server/features/payments/mercadopago-payments.service.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { DiplomasService } from './diplomas.service.ts';

/**
 * Buying a diploma in pesos at OXXO or by SPEI: a pending payment at the diploma's MXN price; the member is
 * enrolled by the diploma purchase's order events once Mercado Pago reports the money (read back by id).
 */
const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

export function createDiplomaPesosPurchaseService(deps: {
  db: Db;
  diplomas: DiplomasService;
  mercadoPago: MercadoPagoPaymentsService;
  publicUrl: string;
}) {
  const { db, diplomas, mercadoPago } = deps;

  /** The diploma as sold in pesos to this member, or why it is not. */
  async function sellable(user: UserRow, diplomaId: string) {
    const diploma = await diplomas.findActive(diplomaId);
    // a diploma without a price in pesos is not sold in pesos
    if (diploma.isTest || !diploma.costMxnCents || diploma.costMxnCents <= 0) throw new AppError('FORBIDDEN');
    if (await diplomas.isEnrolled(user.id, diplomaId)) throw new AppError('CONFLICT');
    return { costMxnCents: diploma.costMxnCents, description: `Diplomado: ${diploma.title}`.slice(0, 127) };
  }

  /**
   * By card on Checkout Pro's page; the member comes back to the diploma's page. The enrolment follows the
   * payment read back approved, through the same order events as OXXO and SPEI.
   */
  async function startCard(user: UserRow, diplomaId: string): Promise<{ approvalUrl: string }> {
    const { costMxnCents, description } = await sellable(user, diplomaId);
    const back = new URL(`/mis-diplomados/diplomado-preview/${encodeURIComponent(diplomaId)}`, deps.publicUrl);
    back.searchParams.set('pago', 'mercadopago');
    const { initPoint } = await mercadoPago.startCardCheckout(user, {
      amountCents: costMxnCents,
      description,
      reference: diplomaId,
      backUrl: back.toString(),
    });
    return { approvalUrl: initPoint };
  }

  async function start(user: UserRow, diplomaId: string, method: 'oxxo' | 'clabe'): Promise<OfflinePayment> {
    const { costMxnCents, description } = await sellable(user, diplomaId);
    const payment = await mercadoPago.startOfflinePayment(user, {
      method,
      amountCents: costMxnCents,
      description,
      reference: diplomaId,
    });
    await db
      .insert(diplomaTransactions)
      .values({
        diplomaId,
        userId: user.id,
        provider: 'mercadopago',
        providerOrderId: payment.paymentId,
        amountCents: costMxnCents,
        currency: 'MXN',
        status: 'PENDING',
        data: { reference: `${diplomaId}:${user.id}`, description, method: payment.method },
      })
      // a second request answers the payment already waiting for money: it is recorded once
      .onConflictDoNothing();
    return payment;
  }

  /**
   * A card payment made on Checkout Pro's page is known by its id only once Mercado Pago reports it: its diploma
   * transaction is recorded then (before the purchase's handler applies the event), from our own payment row's
   * reference, user and amount, never from the browser.
   */
  async function recordCardTransaction(event: OrderEvent): Promise<void> {
    if (event.currency !== 'MXN' || !event.reference || !isUuid(event.reference)) return;
    const [diploma] = await db
      .select({ id: diplomaTable.id })
      .from(diplomaTable)
      .where(eq(diplomaTable.id, event.reference));
    if (!diploma) return;
    await db
      .insert(diplomaTransactions)
      .values({
        diplomaId: diploma.id,
        userId: event.userId,
        provider: 'mercadopago',
        providerOrderId: event.orderId,
        amountCents: event.amountCents,
        currency: 'MXN',
        status: 'PENDING',
        data: { reference: `${diploma.id}:${event.userId}`, description: event.description, method: 'card' },
      })
      // an OXXO or SPEI payment recorded its transaction when it was made
      .onConflictDoNothing();
  }

  return { start, startCard, recordCardTransaction };
}

export type DiplomaPesosPurchaseService = ReturnType<typeof createDiplomaPesosPurchaseService>;

import { and, eq } from 'drizzle-orm';
import type { Log } from '#server/services/log.ts';
import type { Db } from '#server/db/client.ts';
import { diplomaTransactions, diplomaUsers } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { ProviderError } from '#server/services/payments/payment-provider.ts';
import type { OrderEvent } from '#server/features/payments/payments-orders.ts';
import type { PaymentsService } from '#server/features/payments/payments.service.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { DiplomasService } from './diplomas.service.ts';

/**
 * Buying a diploma with the provider's one-time order. The diploma and the buyer come from our own
 * transaction row (written when the order was created); amount and owner from the provider's record.
 */
export function createDiplomaPurchaseService(deps: {
  db: Db;
  diplomas: DiplomasService;
  payments: PaymentsService;
  publicUrl: string;
  log?: Log;
}) {
  const { db, diplomas, payments, publicUrl } = deps;
  const log = deps.log ?? { info() {}, warn() {}, error() {} };
  const { provider } = payments;

  const description = (title: string) => `Diplomado: ${title}`.slice(0, 127);

  async function setStatus(orderId: string, values: { status: string; error?: string | null; data?: object }) {
    await db
      .update(diplomaTransactions)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(diplomaTransactions.providerOrderId, orderId));
  }

  /** Creates the provider's order for the diploma's cost and records the attempt. */
  async function start(user: UserRow, diplomaId: string): Promise<{ orderId: string; approvalUrl: string }> {
    const diploma = await diplomas.findActive(diplomaId);
    if (diploma.isTest || diploma.costCents <= 0) throw new AppError('FORBIDDEN');
    if (await diplomas.isEnrolled(user.id, diplomaId)) throw new AppError('CONFLICT');
    const returnUrl = new URL(`/mis-diplomados/finalize/${diplomaId}`, publicUrl).toString();
    const cancel = new URL(`/mis-diplomados/diplomado-preview/${diplomaId}`, publicUrl);
    cancel.searchParams.set('pago', 'cancelado');
    try {
      const order = await payments.startOrder(user, {
        amountCents: diploma.costCents,
        description: description(diploma.title),
        returnUrl,
        cancelUrl: cancel.toString(),
        reference: diplomaId,
      });
      await db.insert(diplomaTransactions).values({
        diplomaId,
        userId: user.id,
        provider: provider.name,
        providerOrderId: order.id,
        amountCents: diploma.costCents,
        currency: 'USD',
        status: 'CREATED',
        data: { reference: `${diplomaId}:${user.id}`, description: description(diploma.title) },
      });
      return { orderId: order.id, approvalUrl: order.approvalUrl };
    } catch (error) {
      await db.insert(diplomaTransactions).values({
        diplomaId,
        userId: user.id,
        provider: provider.name,
        amountCents: diploma.costCents,
        status: 'ERROR',
        error: error instanceof Error ? error.message : String(error),
      });
      throw error;
    }
  }

  /**
   * Captures (or accepts an already captured) order after the provider confirms owner and amount,
   * then enrols; replays and concurrent calls enrol once.
   */
  async function settle(user: UserRow, orderId: string): Promise<{ diplomaId: string; enrolled: boolean }> {
    const [transaction] = await db
      .select()
      .from(diplomaTransactions)
      .where(eq(diplomaTransactions.providerOrderId, orderId));
    if (!transaction || transaction.userId !== user.id) throw new AppError('FORBIDDEN');
    try {
      const captured = await payments.captureVerifiedOrder(user, orderId, {
        amountCents: transaction.amountCents,
        description: ((transaction.data as { description?: string } | null)?.description ?? 'Diplomado').slice(0, 127),
      });
      const enrolled = await diplomas.enroll(transaction.diplomaId, user.id);
      await setStatus(orderId, {
        status: 'COMPLETED',
        error: null,
        data: { ...(transaction.data as object | null), captureId: captured.captureId },
      });
      if (enrolled) log.info({ orderId, diplomaId: transaction.diplomaId, userId: user.id }, 'diploma purchased');
      return { diplomaId: transaction.diplomaId, enrolled };
    } catch (error) {
      await setStatus(orderId, { status: 'ERROR', error: error instanceof Error ? error.message : String(error) });
      // the provider refusing (not approved, not found) grants nothing; its outages are retried
      if (error instanceof ProviderError && (error.status ?? 500) < 500) throw new AppError('FORBIDDEN');
      throw error;
    }
  }

  /** The browser came back from the provider with the order id; the order must be this member's and for this diploma. */
  async function confirm(user: UserRow, diplomaId: string, orderId: string): Promise<{ isEnrolled: boolean }> {
    const [transaction] = await db
      .select()
      .from(diplomaTransactions)
      .where(
        and(
          eq(diplomaTransactions.providerOrderId, orderId),
          eq(diplomaTransactions.userId, user.id),
          eq(diplomaTransactions.diplomaId, diplomaId),
        ),
      );
    if (!transaction) throw new AppError('FORBIDDEN');
    await settle(user, orderId);
    return { isEnrolled: true };
  }

  /**
   * An order's outcome from the payments pipeline (its webhook job, or our own capture): enrols on
   * 'completed', removes access on 'refunded'. Idempotent; owner, amount and currency must match our record.
   */
  async function applyOrderEvent(event: OrderEvent): Promise<void> {
    const [transaction] = await db
      .select()
      .from(diplomaTransactions)
      .where(eq(diplomaTransactions.providerOrderId, event.orderId));
    if (!transaction) return;
    if (
      transaction.userId !== event.userId ||
      transaction.amountCents !== event.amountCents ||
      event.currency !== transaction.currency
    ) {
      log.error(
        { orderId: event.orderId, diplomaId: transaction.diplomaId },
        'diploma order does not match its transaction',
      );
      return;
    }
    const where = and(eq(diplomaUsers.diplomaId, transaction.diplomaId), eq(diplomaUsers.userId, transaction.userId));
    switch (event.kind) {
      case 'completed':
        if (await diplomas.enroll(transaction.diplomaId, transaction.userId)) {
          log.info({ orderId: event.orderId, diplomaId: transaction.diplomaId }, 'diploma purchased');
        }
        return setStatus(event.orderId, { status: 'COMPLETED', error: null });
      case 'refunded':
        await db.delete(diplomaUsers).where(where);
        log.warn(
          { orderId: event.orderId, diplomaId: transaction.diplomaId },
          'diploma order refunded: access removed',
        );
        return setStatus(event.orderId, { status: 'REFUNDED' });
      case 'denied':
        return setStatus(event.orderId, { status: 'DENIED' });
      case 'pending':
        return setStatus(event.orderId, { status: 'PENDING' });
    }
  }

  /** Spec 3 §4: a payment error the browser saw is logged with its data. */
  async function recordClientError(
    user: UserRow,
    diplomaId: string,
    input: { message: string; data?: { orderId?: string | undefined } | undefined },
  ) {
    const diploma = await diplomas.findActive(diplomaId);
    await db.insert(diplomaTransactions).values({
      diplomaId,
      userId: user.id,
      provider: provider.name,
      amountCents: diploma.costCents,
      status: 'ERROR_CLIENT',
      error: input.message,
      data: input.data?.orderId ? { orderId: input.data.orderId } : null,
    });
    return { ok: true as const };
  }

  return { start, confirm, applyOrderEvent, recordClientError };
}

export type DiplomaPurchaseService = ReturnType<typeof createDiplomaPurchaseService>;

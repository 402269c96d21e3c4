import type { Db } from '#server/db/client.ts';
import { diplomaTransactions } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import type { OfflinePayment } from '#shared/payments/mercadopago.schemas.ts';
import type { MercadoPagoPaymentsService } from '#server/features/payments/mercadopago-payments.service.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { DiplomasService } from './diplomas.service.ts';

/**
 * Buying a diploma in pesos at OXXO or by SPEI: a pending payment at the diploma's MXN price; the member is
 * enrolled by the diploma purchase's order events once Mercado Pago reports the money (read back by id).
 */
export function createDiplomaPesosPurchaseService(deps: {
  db: Db;
  diplomas: DiplomasService;
  mercadoPago: MercadoPagoPaymentsService;
}) {
  const { db, diplomas, mercadoPago } = deps;

  async function start(user: UserRow, diplomaId: string, method: 'oxxo' | 'clabe'): Promise<OfflinePayment> {
    const diploma = await diplomas.findActive(diplomaId);
    // a diploma without a price in pesos is not sold in pesos
    if (diploma.isTest || !diploma.costMxnCents || diploma.costMxnCents <= 0) throw new AppError('FORBIDDEN');
    if (await diplomas.isEnrolled(user.id, diplomaId)) throw new AppError('CONFLICT');
    const description = `Diplomado: ${diploma.title}`.slice(0, 127);
    const payment = await mercadoPago.startOfflinePayment(user, {
      method,
      amountCents: diploma.costMxnCents,
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
        amountCents: diploma.costMxnCents,
        currency: 'MXN',
        status: 'PENDING',
        data: { reference: `${diplomaId}:${user.id}`, description, method: payment.method },
      })
      // a second request answers the payment already waiting for money: it is recorded once
      .onConflictDoNothing();
    return payment;
  }

  return { start };
}

export type DiplomaPesosPurchaseService = ReturnType<typeof createDiplomaPesosPurchaseService>;

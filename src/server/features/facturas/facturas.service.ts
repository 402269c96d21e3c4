import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { fiscalProfiles, paymentFacturas, payments } from '#server/db/schema/index.ts';
import type { Log } from '#server/services/log.ts';
import {
  FacturapiRefusal,
  type FacturapiClient,
  type FacturapiCustomer,
} from '#server/services/facturapi/facturapi-client.ts';
import { AppError } from '#shared/errors.ts';
import { createGlobalInvoices } from './global-invoice.ts';
import type { FacturaSummary, FiscalData } from '#shared/facturas/fiscal.schemas.ts';
import type { CancellationMotive, PaymentForm } from '#shared/facturas/fiscal.rules.ts';

export const facturaJobKinds = {
  receipt: 'facturas.receipt',
  invoice: 'facturas.invoice',
  cancelRefunded: 'facturas.cancel-refunded',
} as const;

/**
 * c_ClaveProdServ of what CxVet sells (courses, diplomas and memberships of veterinary surgery):
 * 86101700, «Servicios de capacitación vocacional no científica».
 */
const productKey = '86101700';

type Schedule = (kind: string, options: { payload: object; uniqueKey: string; tx?: Db }) => Promise<void>;
type PaymentRow = typeof payments.$inferSelect;
type FacturaRow = typeof paymentFacturas.$inferSelect;

/** What a payment recorder tells facturas: a payment in pesos got this result (the one hook of issue #33). */
export type PesosPaymentRecorded = (input: {
  paymentId: string;
  result: PaymentRow['result'];
  paymentForm: PaymentForm;
  tx?: Db;
}) => Promise<void>;

/**
 * Receipts and facturas (CFDI 4.0) of payments in pesos through Facturapi. Without a client (no
 * FACTURAPI_KEY) nothing is invoiced and every summary says so. Facturapi calls run only in jobs, claimed one
 * at a time by the job runner, so two requests at once, a restart or Facturapi down never invoice twice.
 */
export function createFacturasService(deps: {
  db: Db;
  client: FacturapiClient | null;
  schedule: Schedule;
  log?: Pick<Log, 'warn' | 'error'>;
}) {
  const { db, client } = deps;
  const log = deps.log ?? { warn() {}, error() {} };

  /** The hook: an approved payment in pesos gets a receipt job; a refunded one with a factura gets it cancelled. */
  const paymentRecorded: PesosPaymentRecorded = async ({ paymentId, result, paymentForm, tx }) => {
    if (!client) return;
    const run = tx ?? db;
    if (result === 'COMPLETADO') {
      await run.insert(paymentFacturas).values({ paymentId, paymentForm }).onConflictDoNothing();
      await deps.schedule(facturaJobKinds.receipt, { payload: { paymentId }, uniqueKey: `receipt:${paymentId}`, tx });
    } else if (result === 'REEMBOLSADO') {
      await deps.schedule(facturaJobKinds.cancelRefunded, {
        payload: { paymentId },
        uniqueKey: `cancel-refunded:${paymentId}`,
        tx,
      });
    }
  };

  async function rowsOf(paymentId: string) {
    const [found] = await db
      .select({ payment: payments, factura: paymentFacturas })
      .from(payments)
      .leftJoin(paymentFacturas, eq(paymentFacturas.paymentId, payments.id))
      .where(eq(payments.id, paymentId));
    return found ?? null;
  }

  /** The receipt job: creates the payment's receipt once (Facturapi's idempotency key answers a retry). */
  async function createReceipt(paymentId: string) {
    if (!client) throw new Error('FACTURAPI_KEY is not configured');
    const found = await rowsOf(paymentId);
    if (!found?.factura || found.factura.receiptId) return;
    const receipt = await client.createReceipt({
      paymentForm: found.factura.paymentForm,
      description: found.payment.description || 'CxVet',
      totalCents: found.payment.amountCents,
      externalId: paymentId,
      productKey,
    });
    await db
      .update(paymentFacturas)
      .set({
        receiptId: receipt.id,
        receiptKey: receipt.key,
        selfInvoiceUrl: receipt.self_invoice_url,
        updatedAt: new Date(),
      })
      .where(eq(paymentFacturas.paymentId, paymentId));
  }

  const customerOf = (data: FiscalData): FacturapiCustomer => ({
    legal_name: data.legalName,
    tax_id: data.rfc,
    tax_system: data.taxSystem,
    address: { zip: data.zip },
  });

  /**
   * The invoice job: issues the factura asked for from the payment's receipt. A refusal (bad fiscal data at the
   * SAT, a receipt already invoiced by its self-invoice link or the global invoice) ends the request with its
   * reason; Facturapi down throws, and the job runner retries.
   */
  async function issueRequested(paymentId: string) {
    if (!client) throw new Error('FACTURAPI_KEY is not configured');
    const found = await rowsOf(paymentId);
    const row = found?.factura;
    if (!row?.invoiceRequest || row.invoiceId) return;
    if (!row.receiptId) throw new Error('the receipt is not created yet');
    const data = row.invoiceRequest as FiscalData;
    try {
      const invoice = await client.invoiceReceipt(row.receiptId, { customer: customerOf(data), use: data.cfdiUse });
      await db
        .update(paymentFacturas)
        .set({
          invoiceId: invoice.id,
          invoiceUuid: invoice.uuid,
          invoiceRfc: data.rfc,
          invoiceStatus: 'valid',
          invoiceRequest: null,
          lastError: null,
          updatedAt: new Date(),
        })
        .where(eq(paymentFacturas.paymentId, paymentId));
    } catch (error) {
      if (!(error instanceof FacturapiRefusal)) throw error;
      const receipt = await client.getReceipt(row.receiptId);
      const already = receipt.status === 'invoiced_to_customer' || receipt.status === 'invoiced_globally';
      await db
        .update(paymentFacturas)
        .set({
          invoiceRequest: null,
          invoiceRequestedAt: null,
          lastError: already ? null : error.message,
          ...(already && receipt.invoice
            ? {
                invoiceId: receipt.invoice,
                invoiceStatus: receipt.status === 'invoiced_globally' ? 'global' : 'valid',
              }
            : {}),
          updatedAt: new Date(),
        })
        .where(eq(paymentFacturas.paymentId, paymentId));
    }
  }

  /**
   * Asks for the factura of one payment to `data`. Only one request waits per payment: a second one (also at
   * the same moment: the conditional update decides) changes nothing and is answered with the first's state.
   */
  async function request(paymentId: string, data: FiscalData, who: { userId: string; admin: boolean }) {
    const found = await rowsOf(paymentId);
    if (!found || (!who.admin && found.payment.userId !== who.userId)) throw new AppError('NOT_FOUND');
    if (!client || !found.factura) throw new AppError('CONFLICT', { message: 'Facturación no disponible' });
    if (!who.admin)
      await db
        .insert(fiscalProfiles)
        .values({ userId: who.userId, ...data })
        .onConflictDoUpdate({ target: fiscalProfiles.userId, set: { ...data, updatedAt: new Date() } });
    const claimed = await db.transaction(async (tx) => {
      const rows = await tx
        .update(paymentFacturas)
        .set({ invoiceRequest: data, invoiceRequestedAt: new Date(), lastError: null, updatedAt: new Date() })
        .where(
          and(
            eq(paymentFacturas.paymentId, paymentId),
            isNull(paymentFacturas.invoiceId),
            isNull(paymentFacturas.invoiceRequest),
          ),
        )
        .returning({ paymentId: paymentFacturas.paymentId });
      if (rows.length === 0) return false;
      await deps.schedule(facturaJobKinds.invoice, { payload: { paymentId }, uniqueKey: `invoice:${paymentId}`, tx });
      return true;
    });
    return claimed;
  }

  /** Cancels a payment's factura with the SAT's motive (the Admin, or a refund with motive 02). */
  async function cancel(paymentId: string, motive: CancellationMotive) {
    if (!client) throw new AppError('CONFLICT', { message: 'Facturación no disponible' });
    const found = await rowsOf(paymentId);
    const row = found?.factura;
    if (!row?.invoiceId || row.invoiceStatus !== 'valid') throw new AppError('NOT_FOUND');
    let invoice;
    try {
      invoice = await client.cancelInvoice(row.invoiceId, motive);
    } catch (error) {
      if (!(error instanceof FacturapiRefusal)) throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE');
      // the SAT's or Facturapi's reason (01 needs the substituting factura), under the motive
      throw new AppError('VALIDATION', { fields: { motive: `Facturapi no canceló la factura: ${error.message}` } });
    }
    await db
      .update(paymentFacturas)
      .set({
        invoiceStatus: invoice.status === 'canceled' ? 'canceled' : 'valid',
        cancellationMotive: motive,
        updatedAt: new Date(),
      })
      .where(eq(paymentFacturas.paymentId, paymentId));
  }

  /** The cancel job of a refunded payment: its factura (to a customer, not a global one) is cancelled with motive 02. */
  async function cancelRefunded(paymentId: string) {
    const found = await rowsOf(paymentId);
    if (found?.factura?.invoiceId && found.factura.invoiceStatus === 'valid') await cancel(paymentId, '02');
  }

  function summaryOf(payment: PaymentRow, row: FacturaRow | null): FacturaSummary {
    const base = { selfInvoiceUrl: null, rfc: null };
    if (payment.currency !== 'MXN' || (payment.result !== 'COMPLETADO' && !row?.invoiceId))
      return { state: 'no_disponible', ...base };
    if (!client || !row) return { state: 'no_disponible', ...base };
    if (row.invoiceStatus === 'canceled') return { state: 'cancelada', ...base, rfc: row.invoiceRfc };
    if (row.invoiceStatus === 'global') return { state: 'global', ...base };
    if (row.invoiceId) return { state: 'emitida', ...base, rfc: row.invoiceRfc };
    if (!row.receiptId || row.invoiceRequest) return { state: 'en_proceso', ...base };
    return { state: 'solicitable', selfInvoiceUrl: row.selfInvoiceUrl, rfc: null };
  }

  /** The member's facturas, one summary per payment of theirs; the last refusal's reason, if any. */
  async function mine(userId: string) {
    const rows = await db
      .select({ payment: payments, factura: paymentFacturas })
      .from(payments)
      .leftJoin(paymentFacturas, eq(paymentFacturas.paymentId, payments.id))
      .where(eq(payments.userId, userId));
    const [profile] = await db.select().from(fiscalProfiles).where(eq(fiscalProfiles.userId, userId));
    return {
      available: client !== null,
      fiscalData: profile
        ? {
            rfc: profile.rfc,
            legalName: profile.legalName,
            taxSystem: profile.taxSystem,
            cfdiUse: profile.cfdiUse,
            zip: profile.zip,
          }
        : null,
      payments: rows.map(({ payment, factura }) => ({
        paymentId: payment.id,
        ...summaryOf(payment, factura),
        error: factura?.lastError ?? null,
      })),
    };
  }

  /** The factura's PDF or XML, only for the payment's owner or an Admin (anyone else: not found). */
  async function download(paymentId: string, format: 'pdf' | 'xml', who: { userId: string; admin: boolean }) {
    const found = await rowsOf(paymentId);
    if (!found || (!who.admin && found.payment.userId !== who.userId)) throw new AppError('NOT_FOUND');
    const invoiceId = found.factura?.invoiceId;
    // the month's global invoice lists everyone's receipts: only an Admin downloads it
    if (!client || !invoiceId || (!who.admin && found.factura?.invoiceStatus === 'global'))
      throw new AppError('NOT_FOUND');
    try {
      return await client.download(invoiceId, format);
    } catch (error) {
      log.warn({ paymentId, reason: String(error) }, 'factura not downloaded');
      throw new AppError('SERVICE_UNAVAILABLE');
    }
  }

  /** The Admin's list: every payment in pesos (and any payment with a factura), newest first. */
  async function adminList() {
    const rows = await db
      .select({ payment: payments, factura: paymentFacturas })
      .from(payments)
      .leftJoin(paymentFacturas, eq(paymentFacturas.paymentId, payments.id))
      .where(sql`${payments.currency} = 'MXN' or ${paymentFacturas.invoiceId} is not null`)
      .orderBy(sql`${payments.occurredAt} desc`)
      .limit(500);
    return rows.map(({ payment, factura }) => ({
      paymentId: payment.id,
      userId: payment.userId,
      description: payment.description,
      amountCents: payment.amountCents,
      currency: payment.currency,
      result: payment.result,
      occurredAt: payment.occurredAt.toISOString(),
      receiptId: factura?.receiptId ?? null,
      invoiceUuid: factura?.invoiceUuid ?? null,
      cancellationMotive: factura?.cancellationMotive ?? null,
      ...summaryOf(payment, factura),
      selfInvoiceUrl: factura?.selfInvoiceUrl ?? null,
      error: factura?.lastError ?? null,
    }));
  }

  /** A member's fiscal data, for 'Descargar mis datos'. */
  async function fiscalDataOf(userId: string) {
    const [profile] = await db.select().from(fiscalProfiles).where(eq(fiscalProfiles.userId, userId));
    return profile ?? null;
  }

  return {
    available: client !== null,
    global: createGlobalInvoices({ db, client, log }),
    paymentRecorded,
    createReceipt,
    issueRequested,
    request,
    cancel,
    cancelRefunded,
    mine,
    download,
    adminList,
    fiscalDataOf,
  };
}

export type FacturasService = ReturnType<typeof createFacturasService>;

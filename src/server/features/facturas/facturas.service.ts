import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { fiscalProfiles, paymentCreditNotes, paymentFacturas, payments } from '#server/db/schema/index.ts';
import type { Log } from '#server/services/log.ts';
import {
  FacturapiRefusal,
  reasonForLog,
  type FacturapiClient,
  type FacturapiCustomer,
  type FacturapiInvoice,
  type FacturapiReceipt,
} from '#server/services/facturapi/facturapi-client.ts';
import { AppError } from '#shared/errors.ts';
import { createGlobalInvoices, globalInvoiceJobKind } from './global-invoice.ts';
import type {
  AdminFacturaData,
  CreditNoteSummary,
  FacturaSummary,
  FiscalData,
} from '#shared/facturas/fiscal.schemas.ts';
import type { CancellationMotive, PaymentForm } from '#shared/facturas/fiscal.rules.ts';

export const facturaJobKinds = {
  receipt: 'facturas.receipt',
  invoice: 'facturas.invoice',
  cancelRefunded: 'facturas.cancel-refunded',
  cancellationStatus: 'facturas.cancellation-status',
  creditNote: 'facturas.credit-note',
} as const;

/**
 * c_FormaPago of a payment in dollars through PayPal: 31 «Intermediario pagos», for a payment a third party
 * received and passed on, whose real instrument (card, balance, bank) the issuer does not know (decision 052).
 */
const dollarPaymentForm = '31';

/**
 * c_ClaveProdServ of what CxVet sells (courses, diplomas and memberships of veterinary surgery):
 * 86101700, «Servicios de capacitación vocacional no científica».
 */
const productKey = '86101700';

type Schedule = (kind: string, options: { payload: object; uniqueKey: string; tx?: Db }) => Promise<void>;
type PaymentRow = typeof payments.$inferSelect;
type FacturaRow = typeof paymentFacturas.$inferSelect;
type CreditNoteRow = typeof paymentCreditNotes.$inferSelect;

/** What a payment recorder tells facturas: a payment in pesos got this result (the one hook of issue #33). */
export type PesosPaymentRecorded = (input: {
  paymentId: string;
  result: PaymentRow['result'];
  paymentForm: PaymentForm;
  /** The refunds' sum Mercado Pago reports (`transaction_amount_refunded`): a partial one gets a nota de crédito. */
  refundedCents?: number;
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

  /**
   * The hook: an approved payment in pesos gets a receipt job; one refunded in part, a nota de crédito job per
   * refunded total (a redelivery queues the same key, and the job notes a total once); a refunded one with a
   * factura gets it cancelled.
   */
  const paymentRecorded: PesosPaymentRecorded = async ({ paymentId, result, paymentForm, refundedCents, tx }) => {
    if (!client) return;
    const run = tx ?? db;
    if (result === 'COMPLETADO' || result === 'REEMBOLSO_PARCIAL') {
      // the sale was made either way (an approval notification may have been missed): it gets its receipt
      await run.insert(paymentFacturas).values({ paymentId, paymentForm }).onConflictDoNothing();
      await deps.schedule(facturaJobKinds.receipt, { payload: { paymentId }, uniqueKey: `receipt:${paymentId}`, tx });
    }
    if (result === 'REEMBOLSO_PARCIAL' && refundedCents) {
      await deps.schedule(facturaJobKinds.creditNote, {
        payload: { paymentId, refundedCents },
        uniqueKey: `egreso:${paymentId}:${refundedCents}`,
        tx,
      });
    } else if (result === 'REEMBOLSADO') {
      await deps.schedule(facturaJobKinds.cancelRefunded, {
        payload: { paymentId },
        uniqueKey: `cancel-refunded:${paymentId}`,
        tx,
      });
    }
  };

  /**
   * Payments in dollars refunded at PayPal: a factura the Admin issued for one, still valid, is cancelled (02). One
   * read for the whole reading, however many refunds it holds.
   */
  async function dollarPaymentsRefunded(paymentIds: string[]) {
    if (!client || paymentIds.length === 0) return;
    const valid = await db
      .select({ paymentId: paymentFacturas.paymentId })
      .from(paymentFacturas)
      .where(and(inArray(paymentFacturas.paymentId, paymentIds), eq(paymentFacturas.invoiceStatus, 'valid')));
    for (const { paymentId } of valid)
      await deps.schedule(facturaJobKinds.cancelRefunded, {
        payload: { paymentId },
        uniqueKey: `cancel-refunded:${paymentId}`,
      });
  }

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
    await makeReceipt(found.payment, found.factura, found.payment.amountCents);
  }

  /**
   * Creates a payment's receipt for `totalCents` and records it as the one its member invoices, over the receipt
   * `factura` holds (two jobs at once: the second changes nothing, and reads the first's). `replacing` (the receipt it
   * replaces) gives a replacement its own idempotency key.
   */
  async function makeReceipt(payment: PaymentRow, factura: FacturaRow, totalCents: number, replacing?: string) {
    const receipt = await client!.createReceipt({
      paymentForm: factura.paymentForm,
      description: payment.description || 'CxVet',
      totalCents,
      externalId: payment.id,
      productKey,
      replacing,
    });
    await db
      .update(paymentFacturas)
      .set({
        receiptId: receipt.id,
        receiptKey: receipt.key,
        selfInvoiceUrl: receipt.self_invoice_url,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(paymentFacturas.paymentId, payment.id),
          factura.receiptId ? eq(paymentFacturas.receiptId, factura.receiptId) : isNull(paymentFacturas.receiptId),
        ),
      );
  }

  /** A receipt its member invoiced by its self-invoice link (or the global invoice took): its invoice, recorded. */
  const recordInvoicedReceipt = (paymentId: string, receipt: FacturapiReceipt) =>
    db
      .update(paymentFacturas)
      .set({
        invoiceId: receipt.invoice,
        invoiceStatus: receipt.status === 'invoiced_globally' ? 'global' : 'valid',
        updatedAt: new Date(),
      })
      .where(eq(paymentFacturas.paymentId, paymentId));

  /** Our record of an invoice's state: cancelled, its cancellation waiting for the receiver or refused, or valid. */
  const invoiceStatusOf = (invoice: FacturapiInvoice) =>
    invoice.status === 'canceled'
      ? 'canceled'
      : invoice.cancellation_status === 'pending' || invoice.cancellation_status === 'verifying'
        ? 'cancel_pending'
        : invoice.cancellation_status === 'rejected'
          ? 'cancel_rejected'
          : 'valid';

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
    if (!found || !row?.invoiceRequest || row.invoiceId) return;
    const dollars = found.payment.currency !== 'MXN';
    if (!dollars && !row.receiptId) throw new Error('the receipt is not created yet');
    const data = row.invoiceRequest as AdminFacturaData;
    try {
      const invoice = dollars
        ? await client.createInvoice({
            customer: customerOf(data),
            use: data.cfdiUse,
            paymentForm: row.paymentForm,
            description: found.payment.description || 'CxVet',
            totalCents: found.payment.amountCents,
            currency: found.payment.currency,
            exchange: data.exchange!,
            productKey,
            // one key per request: a retry answers its invoice, a corrected request after a refusal is new
            idempotencyKey: `invoice-${paymentId}-${row.invoiceRequestedAt?.getTime() ?? 0}`,
          })
        : await client.invoiceReceipt(row.receiptId!, { customer: customerOf(data), use: data.cfdiUse });
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
      const receipt = row.receiptId ? await client.getReceipt(row.receiptId) : null;
      const already = receipt?.status === 'invoiced_to_customer' || receipt?.status === 'invoiced_globally';
      await db
        .update(paymentFacturas)
        .set({
          invoiceRequest: null,
          invoiceRequestedAt: null,
          lastError: already ? null : error.message,
          ...(already && receipt?.invoice
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
   * A payment in dollars has no receipt: only an Admin invoices it, approved, with the day's exchange rate.
   */
  async function request(paymentId: string, data: AdminFacturaData, who: { userId: string; admin: boolean }) {
    const found = await rowsOf(paymentId);
    if (!found || (!who.admin && found.payment.userId !== who.userId)) throw new AppError('NOT_FOUND');
    if (client && found.payment.currency !== 'MXN') {
      if (!who.admin) throw new AppError('CONFLICT', { message: 'Facturación no disponible' });
      if (found.payment.result !== 'COMPLETADO')
        throw new AppError('CONFLICT', { message: 'Solo se factura un pago aprobado.' });
      if (data.exchange === undefined)
        throw new AppError('VALIDATION', {
          fields: { exchange: 'Escribe el tipo de cambio del día del pago, en pesos por dólar.' },
        });
      await db.insert(paymentFacturas).values({ paymentId, paymentForm: dollarPaymentForm }).onConflictDoNothing();
      found.factura = (await rowsOf(paymentId))?.factura ?? null;
    }
    if (!client || !found.factura) throw new AppError('CONFLICT', { message: 'Facturación no disponible' });
    // a receipt of a payment given back in full is cancelled: nothing is left to invoice
    if (found.payment.result !== 'COMPLETADO' && found.payment.result !== 'REEMBOLSO_PARCIAL')
      throw new AppError('CONFLICT', { message: 'Solo se factura un pago aprobado.' });
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
    if (!row?.invoiceId || (row.invoiceStatus !== 'valid' && row.invoiceStatus !== 'cancel_rejected'))
      throw new AppError('NOT_FOUND');
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
        invoiceStatus: invoiceStatusOf(invoice),
        cancellationMotive: motive,
        updatedAt: new Date(),
      })
      .where(eq(paymentFacturas.paymentId, paymentId));
  }

  /**
   * The cancel job of a refunded payment: its factura (to a customer, not a global one) is cancelled with motive 02,
   * after the notas de crédito of earlier partial refunds (the SAT does not cancel a CFDI that a valid one relates to).
   */
  async function cancelRefunded(paymentId: string) {
    const found = await rowsOf(paymentId);
    // a payment in dollars has no receipt: only a factura the Admin issued is cancelled
    if (found?.factura && !found.factura.invoiceId)
      return found.payment.currency === 'MXN' ? cancelOpenReceipt(found.factura) : undefined;
    if (!found?.factura?.invoiceId || found.factura.invoiceStatus !== 'valid') return;
    if (!client) throw new Error('FACTURAPI_KEY is not configured');
    let waiting = false;
    for (const note of await creditNotesOf([paymentId])) {
      if (!note.invoiceId || note.status === 'canceled') continue;
      let invoice: FacturapiInvoice;
      if (note.status === 'valid' || note.status === 'cancel_rejected') {
        try {
          invoice = await client.cancelInvoice(note.invoiceId, '02');
        } catch (error) {
          // already cancelled, or its cancellation asked, elsewhere (Facturapi's dashboard): what it says now counts
          if (!(error instanceof FacturapiRefusal)) throw error;
          invoice = await client.getInvoice(note.invoiceId);
        }
      } else invoice = await client.getInvoice(note.invoiceId);
      const status = invoiceStatusOf(invoice);
      await recordCreditNote(note.id, { status });
      if (status !== 'canceled') waiting = true;
    }
    // the receiver has not accepted a note's cancellation yet: the job runner tries again later
    if (waiting) throw new Error('a nota de crédito awaits its cancellation');
    await cancel(paymentId, '02');
  }

  /**
   * A payment refunded in full before anyone invoiced it: its receipt is cancelled, so neither its self-invoice link
   * nor the month's global invoice states a sale that was given back. Invoiced meanwhile by its link: that factura is
   * recorded and cancelled as any other.
   */
  async function cancelOpenReceipt(factura: FacturaRow) {
    if (!client) throw new Error('FACTURAPI_KEY is not configured');
    // the receipt job has not run, or a factura is being issued from it: this job waits for them
    if (!factura.receiptId || factura.invoiceRequest) throw new Error('the receipt is not settled yet');
    const receipt = await client.getReceipt(factura.receiptId);
    if (receipt.status === 'open') await client.cancelReceipt(receipt.id);
    else if (receipt.invoice) {
      // a global invoice is the Admin's (decision 066): cancelRefunded leaves it
      await recordInvoicedReceipt(factura.paymentId, receipt);
      await cancelRefunded(factura.paymentId);
    }
  }

  const creditNotesOf = (paymentIds: string[]) =>
    paymentIds.length === 0
      ? Promise.resolve([])
      : db
          .select()
          .from(paymentCreditNotes)
          .where(inArray(paymentCreditNotes.paymentId, paymentIds))
          .orderBy(paymentCreditNotes.refundedCents);

  /**
   * The nota de crédito job of a payment refunded in part, up to `refundedCents`: one CFDI de egreso for what this
   * total adds to the last one noted, related to the factura's UUID (c_TipoRelacion 01), to the factura's receiver.
   * Only a factura to a customer gets one: the month's global invoice is noted by the Admin (decision 066); a
   * receipt nobody has invoiced yet is replaced instead (`replaceReceipt`). A total already noted, or below one noted
   * (notifications out of order), issues nothing. Facturapi down throws (retried with the same idempotency key, so a
   * stamp whose answer was lost is not issued twice); a refusal is recorded.
   */
  async function issueCreditNote(paymentId: string, refundedCents: number) {
    if (!client) throw new Error('FACTURAPI_KEY is not configured');
    const found = await rowsOf(paymentId);
    const factura = found?.factura;
    if (!found || !factura || refundedCents <= 0 || refundedCents >= found.payment.amountCents) return;
    // a factura being issued right now: the note waits for it (the job runner retries)
    if (factura.invoiceRequest && !factura.invoiceId) throw new Error('the factura is being issued');
    if (!factura.invoiceId) {
      // the receipt job has not run yet: its receipt is replaced once it exists
      if (!factura.receiptId) throw new Error('the receipt is not created yet');
      const invoiced = await replaceReceipt(found.payment, factura, refundedCents);
      // invoiced to a customer by its self-invoice link meanwhile: that factura gets its note
      if (invoiced) await issueCreditNote(paymentId, refundedCents);
      return;
    }
    const notes = await creditNotesOf([paymentId]);
    let note = notes.find((each) => each.refundedCents === refundedCents);
    if (!note) {
      if (!factura.invoiceId || factura.invoiceStatus !== 'valid') return;
      if (notes.some((each) => each.refundedCents > refundedCents)) return;
      const before = Math.max(0, ...notes.map((each) => each.refundedCents));
      [note] = await db
        .insert(paymentCreditNotes)
        .values({ paymentId, refundedCents, amountCents: refundedCents - before })
        .onConflictDoNothing()
        .returning();
      if (!note) return;
    }
    if (note.status !== 'pending') return;
    if (!factura.invoiceId || factura.invoiceStatus !== 'valid') {
      await recordCreditNote(note.id, { status: 'refused', lastError: 'La factura se canceló antes de la nota.' });
      return;
    }
    try {
      const original = await client.getInvoice(factura.invoiceId);
      const invoice = await client.createCreditNote({
        customer: {
          legal_name: original.customer.legal_name,
          tax_id: original.customer.tax_id,
          tax_system: original.customer.tax_system ?? '',
          address: { zip: original.customer.address?.zip ?? '' },
        },
        relatedUuid: original.uuid,
        paymentForm: factura.paymentForm,
        description: `Devolución parcial: ${found.payment.description || 'CxVet'}`,
        totalCents: note.amountCents,
        productKey,
        idempotencyKey: `egreso-${paymentId}-${refundedCents}`,
      });
      await recordCreditNote(note.id, {
        status: 'valid',
        invoiceId: invoice.id,
        invoiceUuid: invoice.uuid,
        lastError: null,
      });
    } catch (error) {
      if (!(error instanceof FacturapiRefusal)) throw error;
      log.warn({ paymentId, refundedCents, reason: reasonForLog(error) }, 'nota de crédito refused by facturapi');
      await recordCreditNote(note.id, { status: 'refused', lastError: error.message });
    }
  }

  /**
   * A payment refunded in part before anyone invoiced it: no CFDI states it yet, so no nota de crédito can relate to
   * one. Its open receipt is cancelled and a receipt for what was kept takes its place, so the member's factura, or
   * the month's global invoice, states the sale as it stands. The new receipt's idempotency key names the receipt it
   * replaces: a retry after a crash between the two calls, and two refunds' jobs replacing the same receipt at once
   * (two instances), get the same new receipt, and the loop replaces it again until it states the largest refund.
   * A receipt already net of this refund (or of a larger one) is left as it is. True when the receipt turned out
   * invoiced to a customer meanwhile (recorded here), so the caller notes that factura instead.
   */
  async function replaceReceipt(payment: PaymentRow, factura: FacturaRow, refundedCents: number): Promise<boolean> {
    const keptCents = payment.amountCents - refundedCents;
    let row = factura;
    for (let round = 0; round < 5; round++) {
      const current = await client!.getReceipt(row.receiptId!);
      if (current.invoice) {
        await recordInvoicedReceipt(payment.id, current);
        return current.status === 'invoiced_to_customer';
      }
      if (current.status === 'open') {
        if (Math.round(current.total * 100) <= keptCents) return false;
        // another job cancelled it a moment ago: the same new receipt is asked for below
        await client!.cancelReceipt(current.id).catch((error: unknown) => {
          if (!(error instanceof FacturapiRefusal)) throw error;
        });
      }
      await makeReceipt(payment, row, keptCents, `after-${current.id}`);
      row = (await rowsOf(payment.id))!.factura!;
    }
    throw new Error('the receipt kept changing');
  }

  const recordCreditNote = (id: string, values: Partial<CreditNoteRow>) =>
    db
      .update(paymentCreditNotes)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(paymentCreditNotes.id, id));

  /**
   * A notification of Facturapi about an invoice (its body is not trusted: a forged one only makes us read the
   * invoice again): an invoice of ours gets a job that reads its state from Facturapi. True when a job was queued.
   */
  async function invoiceNotified(invoiceId: string): Promise<boolean> {
    if (!client) return false;
    const [row] = await db
      .select({ paymentId: paymentFacturas.paymentId })
      .from(paymentFacturas)
      .where(eq(paymentFacturas.invoiceId, invoiceId))
      .union(
        db
          .select({ paymentId: paymentCreditNotes.paymentId })
          .from(paymentCreditNotes)
          .where(eq(paymentCreditNotes.invoiceId, invoiceId)),
      );
    if (!row) return false;
    await deps.schedule(facturaJobKinds.cancellationStatus, {
      payload: { paymentId: row.paymentId },
      uniqueKey: `cancellation-status:${row.paymentId}`,
    });
    return true;
  }

  /**
   * The job of a notification: the cancellation of the payment's factura and of its notas de crédito as Facturapi
   * says now (the same answer twice: no change).
   */
  async function refreshCancellation(paymentId: string) {
    if (!client) throw new Error('FACTURAPI_KEY is not configured');
    for (const note of await creditNotesOf([paymentId])) {
      if (!note.invoiceId || note.status === 'canceled') continue;
      const status = invoiceStatusOf(await client.getInvoice(note.invoiceId));
      if (status !== note.status) await recordCreditNote(note.id, { status });
    }
    const row = (await rowsOf(paymentId))?.factura;
    if (!row?.invoiceId || row.invoiceStatus === 'global') return;
    const status = invoiceStatusOf(await client.getInvoice(row.invoiceId));
    if (status !== row.invoiceStatus)
      await db
        .update(paymentFacturas)
        .set({ invoiceStatus: status, updatedAt: new Date() })
        .where(eq(paymentFacturas.paymentId, paymentId));
  }

  function summaryOf(payment: PaymentRow, row: FacturaRow | null): FacturaSummary {
    const base = { selfInvoiceUrl: null, rfc: null };
    // a payment in dollars has a factura only when the Admin issued one by hand
    // a payment refunded in part is invoiced for what was kept (its receipt is replaced: replaceReceipt)
    const invoiceable = payment.result === 'COMPLETADO' || payment.result === 'REEMBOLSO_PARCIAL';
    if ((payment.currency !== 'MXN' && !row) || (!invoiceable && !row?.invoiceId))
      return { state: 'no_disponible', ...base };
    if (!client || !row) return { state: 'no_disponible', ...base };
    if (row.invoiceStatus === 'canceled') return { state: 'cancelada', ...base, rfc: row.invoiceRfc };
    if (row.invoiceStatus === 'cancel_pending') return { state: 'cancelacion_pendiente', ...base, rfc: row.invoiceRfc };
    if (row.invoiceStatus === 'cancel_rejected')
      return { state: 'cancelacion_rechazada', ...base, rfc: row.invoiceRfc };
    if (row.invoiceStatus === 'global') return { state: 'global', ...base };
    if (row.invoiceId) return { state: 'emitida', ...base, rfc: row.invoiceRfc };
    if (!row.receiptId || row.invoiceRequest)
      return { state: payment.currency === 'MXN' || row.invoiceRequest ? 'en_proceso' : 'no_disponible', ...base };
    return { state: 'solicitable', selfInvoiceUrl: row.selfInvoiceUrl, rfc: null };
  }

  /** A nota de crédito as its member sees it; one Facturapi refused is the Admin's to mend, so it is not shown. */
  const creditNoteSummaryOf = (note: CreditNoteRow): CreditNoteSummary | null => {
    const state = (
      {
        pending: 'en_proceso',
        valid: 'emitida',
        // the receiver refused its cancellation: the note stands
        cancel_rejected: 'emitida',
        cancel_pending: 'cancelacion_pendiente',
        canceled: 'cancelada',
      } as const
    )[note.status as 'pending' | 'valid' | 'cancel_rejected' | 'cancel_pending' | 'canceled'];
    return state ? { id: note.id, amountCents: note.amountCents, state } : null;
  };

  /** The member's facturas, one summary per payment of theirs; the last refusal's reason, if any. */
  async function mine(userId: string) {
    const rows = await db
      .select({ payment: payments, factura: paymentFacturas })
      .from(payments)
      .leftJoin(paymentFacturas, eq(paymentFacturas.paymentId, payments.id))
      .where(eq(payments.userId, userId));
    const [profile] = await db.select().from(fiscalProfiles).where(eq(fiscalProfiles.userId, userId));
    const notes = await creditNotesOf(rows.map(({ payment }) => payment.id));
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
        creditNotes: notes.flatMap((note) => {
          const summary = note.paymentId === payment.id ? creditNoteSummaryOf(note) : null;
          return summary ? [summary] : [];
        }),
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
      log.warn({ paymentId, reason: reasonForLog(error) }, 'factura not downloaded');
      throw new AppError('SERVICE_UNAVAILABLE');
    }
  }

  /**
   * A nota de crédito's PDF or XML, guarded as the factura's: only the payment's owner or an Admin (anyone else,
   * or a note not stamped: not found).
   */
  async function downloadCreditNote(
    paymentId: string,
    creditNoteId: string,
    format: 'pdf' | 'xml',
    who: { userId: string; admin: boolean },
  ) {
    const found = await rowsOf(paymentId);
    if (!found || (!who.admin && found.payment.userId !== who.userId)) throw new AppError('NOT_FOUND');
    const [note] = await db
      .select()
      .from(paymentCreditNotes)
      .where(and(eq(paymentCreditNotes.id, creditNoteId), eq(paymentCreditNotes.paymentId, paymentId)));
    if (!client || !note?.invoiceId) throw new AppError('NOT_FOUND');
    try {
      return await client.download(note.invoiceId, format);
    } catch (error) {
      log.warn({ paymentId, creditNoteId, reason: reasonForLog(error) }, 'nota de crédito not downloaded');
      throw new AppError('SERVICE_UNAVAILABLE');
    }
  }

  /** The Admin's list: every payment in pesos, every approved one in dollars, any with a factura; newest first. */
  async function adminList() {
    const rows = await db
      .select({ payment: payments, factura: paymentFacturas })
      .from(payments)
      .leftJoin(paymentFacturas, eq(paymentFacturas.paymentId, payments.id))
      .where(
        sql`${payments.currency} = 'MXN' or ${payments.result} = 'COMPLETADO' or ${paymentFacturas.paymentId} is not null`,
      )
      .orderBy(sql`${payments.occurredAt} desc`)
      .limit(500);
    const notes = await creditNotesOf(
      rows.flatMap(({ payment }) => (payment.result === 'COMPLETADO' ? [] : [payment.id])),
    );
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
      // every note, a refused one too (its reason is the Admin's to act on)
      creditNotes: notes
        .filter((note) => note.paymentId === payment.id)
        .map((note) => ({
          id: note.id,
          amountCents: note.amountCents,
          state: creditNoteSummaryOf(note)?.state ?? ('no_emitida' as const),
          error: note.lastError,
        })),
    }));
  }

  /**
   * The Admin's 'Emitir la factura global del mes pasado': the daily job's run, queued now. It still issues the
   * month's invoice once (its row is claimed first), and does nothing for a month already issued or empty.
   */
  async function queueGlobalInvoice() {
    await deps.schedule(globalInvoiceJobKind, { payload: {}, uniqueKey: 'global:now' });
  }

  /** A member's fiscal data, for 'Descargar mis datos'. */
  async function fiscalDataOf(userId: string) {
    const [profile] = await db.select().from(fiscalProfiles).where(eq(fiscalProfiles.userId, userId));
    return profile ?? null;
  }

  return {
    available: client !== null,
    global: createGlobalInvoices({ db, client, log }),
    queueGlobalInvoice,
    paymentRecorded,
    dollarPaymentsRefunded,
    createReceipt,
    issueRequested,
    request,
    cancel,
    cancelRefunded,
    issueCreditNote,
    downloadCreditNote,
    invoiceNotified,
    refreshCancellation,
    mine,
    download,
    adminList,
    fiscalDataOf,
  };
}

export type FacturasService = ReturnType<typeof createFacturasService>;

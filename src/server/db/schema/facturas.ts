import { integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { payments } from './payments.ts';

/**
 * A payment in pesos at Facturapi: its receipt (recibo, with the self-invoice link) and, once asked for, the
 * factura issued from that receipt. One row per payment; the receipt is invoiced at most once (Facturapi
 * refuses a second time, and `invoiceRequest` is claimed by one request at a time).
 */
export const paymentFacturas = pgTable('payment_facturas', {
  paymentId: uuid('payment_id')
    .primaryKey()
    .references(() => payments.id, { onDelete: 'cascade' }),
  /** c_FormaPago: 01 OXXO, 03 SPEI, 04 credit card, 28 debit card. */
  paymentForm: text('payment_form').notNull(),
  receiptId: text('receipt_id'),
  receiptKey: text('receipt_key'),
  selfInvoiceUrl: text('self_invoice_url'),
  /** The fiscal data of a factura asked for and not yet issued (the job issues it; Facturapi down: retried). */
  invoiceRequest: jsonb('invoice_request'),
  invoiceRequestedAt: timestamp('invoice_requested_at', { withTimezone: true }),
  invoiceId: text('invoice_id'),
  invoiceUuid: text('invoice_uuid'),
  invoiceRfc: text('invoice_rfc'),
  /** valid, canceled, or global (invoiced in the month's global invoice). */
  invoiceStatus: text('invoice_status'),
  cancellationMotive: text('cancellation_motive'),
  lastError: text('last_error'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The member's fiscal data, kept for the next request (and in 'Descargar mis datos'). */
export const fiscalProfiles = pgTable('fiscal_profiles', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  rfc: text('rfc').notNull(),
  legalName: text('legal_name').notNull(),
  taxSystem: text('tax_system').notNull(),
  cfdiUse: text('cfdi_use').notNull(),
  zip: text('zip').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The month's global invoice to 'público en general' (XAXX010101000) of the receipts nobody invoiced; one row
 * per month, written before Facturapi is asked, so two instances never issue two.
 */
export const globalInvoices = pgTable('global_invoices', {
  /** YYYY-MM, the month of the receipts (Mexico City time). */
  month: text('month').primaryKey(),
  invoiceId: text('invoice_id'),
  invoiceUuid: text('invoice_uuid'),
  totalCents: integer('total_cents'),
  /** issued, or none (no receipt was left open that month). */
  status: text('status').notNull().default('pending'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A CFDI de egreso (nota de crédito) of a payment's factura, one per refunded total Mercado Pago reported: a
 * partial refund of $500 is one note, a second refund bringing it to $800 another of $300. The row is written
 * before Facturapi is asked, so the same total is never noted twice (decision 066).
 */
export const paymentCreditNotes = pgTable(
  'payment_credit_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    /** The payment's refunded total this note brings the documents to. */
    refundedCents: integer('refunded_cents').notNull(),
    /** This note's amount: the refunded total less the one of the note before it. */
    amountCents: integer('amount_cents').notNull(),
    invoiceId: text('invoice_id'),
    invoiceUuid: text('invoice_uuid'),
    /** pending (Facturapi not answered yet), valid, cancel_pending, cancel_rejected, canceled, or refused (last_error). */
    status: text('status').notNull().default('pending'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [unique('payment_credit_notes_payment_total_key').on(table.paymentId, table.refundedCents)],
);

import { and, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { globalInvoices, paymentFacturas } from '#server/db/schema/index.ts';
import type { Log } from '#server/services/log.ts';
import { FacturapiRefusal, reasonForLog, type FacturapiClient } from '#server/services/facturapi/facturapi-client.ts';
import { AppError } from '#shared/errors.ts';

export const globalInvoiceJobKind = 'facturas.global';

/** Mexico City has kept UTC−6 all year since 2022 (no more daylight saving time). */
const mexicoOffsetHours = 6;

/** The month before `now` in Mexico City: its key (YYYY-MM) and its bounds as instants. */
export function previousMonth(now: Date) {
  const local = new Date(now.getTime() - mexicoOffsetHours * 3600_000);
  const year = local.getUTCFullYear();
  const month = local.getUTCMonth(); // this month, 0-based: the previous one starts at month - 1
  const from = new Date(Date.UTC(year, month - 1, 1, mexicoOffsetHours));
  const to = new Date(Date.UTC(year, month, 1, mexicoOffsetHours));
  const key = `${from.getUTCFullYear()}-${String(from.getUTCMonth() + 1).padStart(2, '0')}`;
  return { key, from, to };
}

/**
 * The monthly global invoice: once the month is over, every receipt of it still open (nobody asked for a
 * factura, nor used the self-invoice link) goes into one factura to 'público en general', as Facturapi's
 * global invoice from receipts does. The month's row is claimed first, so it runs once across instances.
 */
export function createGlobalInvoices(deps: {
  db: Db;
  client: FacturapiClient | null;
  log?: Pick<Log, 'warn'>;
  now?: () => Date;
}) {
  const { db, client } = deps;
  const now = deps.now ?? (() => new Date());

  /** The job (daily): issues last month's global invoice if it is not issued yet. */
  async function run() {
    if (!client) return;
    const { key, from, to } = previousMonth(now());
    await db.insert(globalInvoices).values({ month: key }).onConflictDoNothing();
    const [row] = await db.select().from(globalInvoices).where(eq(globalInvoices.month, key));
    if (!row || row.status !== 'pending') return;
    let invoice;
    try {
      invoice = await client.createGlobalInvoice({ from, to });
    } catch (error) {
      if (!(error instanceof FacturapiRefusal)) throw error;
      // nothing left open that month (Facturapi refuses an empty global invoice)
      deps.log?.warn({ month: key, reason: reasonForLog(error) }, 'no global invoice for the month');
      await db
        .update(globalInvoices)
        .set({ status: 'none', updatedAt: new Date() })
        .where(eq(globalInvoices.month, key));
      return;
    }
    await db
      .update(globalInvoices)
      .set({
        status: 'issued',
        invoiceId: invoice.id,
        invoiceUuid: invoice.uuid,
        totalCents: Math.round(invoice.total * 100),
        updatedAt: new Date(),
      })
      .where(eq(globalInvoices.month, key));
    // the payments whose receipts went into it, as Facturapi reports each receipt
    const open = await db
      .select()
      .from(paymentFacturas)
      .where(and(isNotNull(paymentFacturas.receiptId), isNull(paymentFacturas.invoiceId)));
    for (const each of open) {
      const receipt = await client.getReceipt(each.receiptId!);
      if (receipt.status === 'invoiced_globally' && receipt.invoice === invoice.id)
        await db
          .update(paymentFacturas)
          .set({ invoiceId: invoice.id, invoiceStatus: 'global', invoiceRequest: null, updatedAt: new Date() })
          .where(and(eq(paymentFacturas.paymentId, each.paymentId), isNull(paymentFacturas.invoiceId)));
    }
  }

  /** The Admin's list of global invoices, newest month first. */
  async function list() {
    const rows = await db.select().from(globalInvoices).orderBy(desc(globalInvoices.month));
    return rows.map((row) => ({
      month: row.month,
      status: row.status,
      invoiceUuid: row.invoiceUuid,
      totalCents: row.totalCents,
    }));
  }

  /** A global invoice's PDF or XML, for the Admin. */
  async function download(month: string, format: 'pdf' | 'xml') {
    const [row] = await db.select().from(globalInvoices).where(eq(globalInvoices.month, month));
    if (!client || !row?.invoiceId) throw new AppError('NOT_FOUND');
    return client.download(row.invoiceId, format);
  }

  return { run, list, download };
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { paymentCreditNotes, paymentFacturas, paymentOrders, payments } from '#server/db/schema/index.ts';
import type { MercadoPagoFake } from '#server/services/payments/simulated-mercadopago.ts';
import type { FacturapiFake } from '#server/services/facturapi/facturapi-fake.testing.ts';
import { createFacturapiClient } from '#server/services/facturapi/facturapi-client.ts';
import { memberRequest } from '#server/features/diplomas/diplomas.testing.ts';
import { deliver, paidInPesos, personaFisica, retryNow, startFacturasApp } from './facturas.testing.ts';
import { createGlobalInvoices } from './global-invoice.ts';
import { collectMemberData } from '#server/features/privacy/privacy.export.ts';

let mercadoPago: MercadoPagoFake;
let facturapi: FacturapiFake;
let t: TestApp;
let app: Awaited<ReturnType<typeof startFacturasApp>>;

beforeAll(async () => {
  app = await startFacturasApp();
  ({ t, mercadoPago, facturapi } = app);
}, 180_000);
afterAll(async () => app.close());

const facturaOf = async (paymentId: string) =>
  (await t.db.select().from(paymentFacturas).where(eq(paymentFacturas.paymentId, paymentId)))[0]!;
const notesOf = (paymentId: string) =>
  t.db
    .select()
    .from(paymentCreditNotes)
    .where(eq(paymentCreditNotes.paymentId, paymentId))
    .orderBy(paymentCreditNotes.refundedCents);
const egresosTo = (uuid: string) =>
  [...facturapi.invoices.values()].filter((invoice) =>
    invoice.related_documents.some((related) => related.documents.includes(uuid)),
  );
const summaryOf = async (cookie: string, paymentId: string) =>
  (
    (await memberRequest(t, cookie, 'GET', '/api/facturas')).json() as {
      payments: {
        paymentId: string;
        state: string;
        creditNotes: { id: string; amountCents: number; state: string }[];
      }[];
    }
  ).payments.find((each) => each.paymentId === paymentId)!;

/** A member's diploma paid in pesos by OXXO ($2,499.00), with its factura issued to personaFisica. */
async function invoiced() {
  const paid = await paidInPesos(t, mercadoPago);
  await memberRequest(t, paid.cookie, 'POST', `/api/facturas/${paid.paymentId}`, personaFisica);
  const factura = await facturaOf(paid.paymentId);
  expect(factura.invoiceStatus).toBe('valid');
  return { ...paid, factura };
}

async function refundPart(mercadoPagoId: string, pesos: number) {
  mercadoPago.refundPart(mercadoPagoId, pesos);
  return deliver(t, mercadoPago.notification('payment', mercadoPagoId));
}

describe('a partial refund at Mercado Pago', () => {
  it('is recorded Reembolso parcial, keeps what it paid for, and issues one CFDI de egreso related to the factura', async () => {
    const { cookie, mercadoPagoId, paymentId, factura } = await invoiced();
    const sent = facturapi.requests.length;
    await refundPart(mercadoPagoId, 500);
    const [payment] = await t.db.select().from(payments).where(eq(payments.id, paymentId));
    expect(payment).toMatchObject({ result: 'REEMBOLSO_PARCIAL', amountCents: 249_900 });
    const [order] = await t.db.select().from(paymentOrders).where(eq(paymentOrders.providerOrderId, mercadoPagoId));
    expect(order!.status).toBe('COMPLETED');
    const egreso = facturapi.requests.slice(sent).find((each) => each.method === 'POST' && each.url === '/v2/invoices');
    expect(egreso?.body).toEqual({
      type: 'E',
      customer: {
        legal_name: personaFisica.legalName,
        tax_id: personaFisica.rfc,
        tax_system: personaFisica.taxSystem,
        address: { zip: personaFisica.zip },
      },
      use: 'G02',
      payment_form: '01',
      payment_method: 'PUE',
      related_documents: [{ relationship: '01', documents: [factura.invoiceUuid] }],
      idempotency_key: `egreso-${paymentId}-50000`,
      items: [
        {
          quantity: 1,
          product: {
            description: expect.stringMatching(/^Devolución parcial: /),
            product_key: '86101700',
            price: 500,
            tax_included: true,
          },
        },
      ],
    });
    const [note] = await notesOf(paymentId);
    expect(note).toMatchObject({ refundedCents: 50_000, amountCents: 50_000, status: 'valid' });
    expect(facturapi.invoices.get(note!.invoiceId!)).toMatchObject({ type: 'E', total: 500, status: 'valid' });
    // the factura itself stays valid, and the member sees both
    expect((await facturaOf(paymentId)).invoiceStatus).toBe('valid');
    expect(await summaryOf(cookie, paymentId)).toMatchObject({
      state: 'emitida',
      creditNotes: [{ id: note!.id, amountCents: 50_000, state: 'emitida' }],
    });
  });

  it('issues nothing twice for a notification delivered again or a new one of the same refund', async () => {
    const { mercadoPagoId, paymentId, factura } = await invoiced();
    mercadoPago.refundPart(mercadoPagoId, 300);
    const hook = mercadoPago.notification('payment', mercadoPagoId);
    await deliver(t, hook);
    await deliver(t, hook);
    await deliver(t, mercadoPago.notification('payment', mercadoPagoId));
    await retryNow(t);
    expect(await notesOf(paymentId)).toHaveLength(1);
    expect(egresosTo(factura.invoiceUuid!)).toHaveLength(1);
  });

  it('gives a second partial refund its own note for the difference', async () => {
    const { cookie, mercadoPagoId, paymentId, factura } = await invoiced();
    await refundPart(mercadoPagoId, 500);
    await refundPart(mercadoPagoId, 300);
    expect((await notesOf(paymentId)).map((note) => [note.refundedCents, note.amountCents, note.status])).toEqual([
      [50_000, 50_000, 'valid'],
      [80_000, 30_000, 'valid'],
    ]);
    expect(egresosTo(factura.invoiceUuid!).map((invoice) => invoice.total)).toEqual([500, 300]);
    expect((await summaryOf(cookie, paymentId)).creditNotes.map((note) => note.amountCents)).toEqual([50_000, 30_000]);
  });

  it('keeps the note queued while Facturapi is down: En proceso, then issued once by the retried job', async () => {
    const { cookie, mercadoPagoId, paymentId, factura } = await invoiced();
    facturapi.fail('POST /v2/invoices', 3);
    await refundPart(mercadoPagoId, 250);
    expect(await notesOf(paymentId)).toMatchObject([{ status: 'pending', invoiceId: null }]);
    expect((await summaryOf(cookie, paymentId)).creditNotes).toMatchObject([
      { amountCents: 25_000, state: 'en_proceso' },
    ]);
    await retryNow(t);
    expect(await notesOf(paymentId)).toMatchObject([{ status: 'valid', invoiceId: expect.any(String) }]);
    expect(egresosTo(factura.invoiceUuid!)).toHaveLength(1);
    expect((await summaryOf(cookie, paymentId)).creditNotes).toMatchObject([{ state: 'emitida' }]);
  });

  it('cancels the notes and then the factura, with motive 02, when the rest is refunded later', async () => {
    const { cookie, mercadoPagoId, paymentId } = await invoiced();
    await refundPart(mercadoPagoId, 500);
    mercadoPago.refund(mercadoPagoId);
    await deliver(t, mercadoPago.notification('payment', mercadoPagoId));
    const [payment] = await t.db.select().from(payments).where(eq(payments.id, paymentId));
    expect(payment!.result).toBe('REEMBOLSADO');
    const [note] = await notesOf(paymentId);
    expect(note!.status).toBe('canceled');
    expect(facturapi.invoices.get(note!.invoiceId!)).toMatchObject({ status: 'canceled', motive: '02' });
    expect(await facturaOf(paymentId)).toMatchObject({ invoiceStatus: 'canceled', cancellationMotive: '02' });
    expect(await summaryOf(cookie, paymentId)).toMatchObject({
      state: 'cancelada',
      creditNotes: [{ state: 'cancelada' }],
    });
  });

  it('issues no note for a payment in the global invoice', async () => {
    const global = await paidInPesos(t, mercadoPago);
    // the receipt left open goes into next month's global invoice
    const local = new Date(Date.now() - 6 * 3600_000);
    const nextMonth = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 2, 12));
    const client = createFacturapiClient({ apiUrl: facturapi.url, apiKey: app.apiKey, backoffMs: 1 });
    await createGlobalInvoices({ db: t.db, client, now: () => nextMonth }).run();
    expect((await facturaOf(global.paymentId)).invoiceStatus).toBe('global');
    await refundPart(global.mercadoPagoId, 400);
    const [payment] = await t.db.select().from(payments).where(eq(payments.id, global.paymentId));
    expect(payment!.result).toBe('REEMBOLSO_PARCIAL');
    expect(await notesOf(global.paymentId)).toEqual([]);
    expect((await summaryOf(global.cookie, global.paymentId)).creditNotes).toEqual([]);
  });
});

describe('a refund before anyone invoiced the payment', () => {
  const receiptsOf = (paymentId: string) =>
    [...facturapi.receipts.values()].filter((receipt) => receipt.external_id === paymentId);

  it('replaces the open receipt by one for what was kept, which the member then invoices', async () => {
    const paid = await paidInPesos(t, mercadoPago);
    const [first] = receiptsOf(paid.paymentId);
    expect(first).toMatchObject({ status: 'open', total: 2499 });
    await refundPart(paid.mercadoPagoId, 400);
    // before, the member could no longer ask for a factura, and the global invoice took the whole $2,499
    const replaced = receiptsOf(paid.paymentId);
    expect(replaced.map((receipt) => [receipt.status, receipt.total])).toEqual([
      ['canceled', 2499],
      ['open', 2099],
    ]);
    expect((await facturaOf(paid.paymentId)).receiptId).toBe(replaced[1]!.id);
    // the same notification again, and a crash's retry, replace nothing more
    await deliver(t, mercadoPago.notification('payment', paid.mercadoPagoId));
    await retryNow(t);
    expect(receiptsOf(paid.paymentId)).toHaveLength(2);
    // a second refund: the receipt states what is kept now
    await refundPart(paid.mercadoPagoId, 300);
    expect(receiptsOf(paid.paymentId).map((receipt) => [receipt.status, receipt.total])).toEqual([
      ['canceled', 2499],
      ['canceled', 2099],
      ['open', 1799],
    ]);
    expect(await summaryOf(paid.cookie, paid.paymentId)).toMatchObject({ state: 'solicitable', creditNotes: [] });
    const asked = await memberRequest(t, paid.cookie, 'POST', `/api/facturas/${paid.paymentId}`, personaFisica);
    expect(asked.statusCode, asked.body).toBeLessThan(300);
    const factura = await facturaOf(paid.paymentId);
    expect(factura.invoiceStatus).toBe('valid');
    expect(facturapi.invoices.get(factura.invoiceId!)).toMatchObject({ total: 1799, type: 'I' });
    // no CFDI stated the refunded part: no note relates to one
    expect(await notesOf(paid.paymentId)).toEqual([]);
  });

  it('leaves one open receipt, for the larger refund, when two refunds’ jobs replace it at once (two instances)', async () => {
    const paid = await paidInPesos(t, mercadoPago);
    const facturas = t.app.services.facturas;
    // the $400 refund's job has cancelled the receipt and is creating its replacement when the $700 one runs whole
    const held = facturapi.hold('POST /v2/receipts');
    const first = facturas.issueCreditNote(paid.paymentId, 40_000);
    await held.reached;
    await facturas.issueCreditNote(paid.paymentId, 70_000);
    held.release();
    await first;
    // before, each job made and recorded a receipt of its own: $2,099 and $1,799 both open, and the global invoice
    // would have taken both
    const open = receiptsOf(paid.paymentId).filter((receipt) => receipt.status === 'open');
    expect(open.map((receipt) => receipt.total)).toEqual([1799]);
    expect((await facturaOf(paid.paymentId)).receiptId).toBe(open[0]!.id);
  });

  it('cancels the open receipt of a payment given back in full, so nobody invoices it', async () => {
    const paid = await paidInPesos(t, mercadoPago);
    mercadoPago.refund(paid.mercadoPagoId);
    await deliver(t, mercadoPago.notification('payment', paid.mercadoPagoId));
    await retryNow(t);
    // before, it stayed open: its self-invoice link worked and the month's global invoice took the sale
    expect(receiptsOf(paid.paymentId).map((receipt) => receipt.status)).toEqual(['canceled']);
    expect((await summaryOf(paid.cookie, paid.paymentId)).state).toBe('no_disponible');
    const asked = await memberRequest(t, paid.cookie, 'POST', `/api/facturas/${paid.paymentId}`, personaFisica);
    expect(asked.statusCode).toBe(409);
  });
});

describe('Descargar PDF and XML of a nota de crédito', () => {
  it('serves it to the payment’s owner and an Admin only, as the factura', async () => {
    const { cookie, mercadoPagoId, paymentId, factura } = await invoiced();
    await refundPart(mercadoPagoId, 500);
    const [note] = await notesOf(paymentId);
    const url = (format: string) => `/api/facturas/${paymentId}/credit-notes/${note!.id}/${format}`;
    const pdf = await memberRequest(t, cookie, 'GET', url('pdf'));
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.body.startsWith('%PDF')).toBe(true);
    const xml = await memberRequest(t, cookie, 'GET', url('xml'));
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toContain('TipoDeComprobante="E"');
    expect(xml.body).toContain(
      `<cfdi:CfdiRelacionados TipoRelacion="01"><cfdi:CfdiRelacionado UUID="${factura.invoiceUuid}"/>`,
    );
    const admin = await signedInAs(t, { type: 'Admin' });
    expect((await memberRequest(t, admin.cookie, 'GET', url('pdf'))).statusCode).toBe(200);
    const other = await signedInAs(t, { type: 'Premium' });
    expect((await memberRequest(t, other.cookie, 'GET', url('pdf'))).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: url('xml') })).statusCode).toBe(401);
    // a note named under another payment, even the member's own, is not found
    const mine = await invoiced();
    const elsewhere = `/api/facturas/${mine.paymentId}/credit-notes/${note!.id}/pdf`;
    expect((await memberRequest(t, mine.cookie, 'GET', elsewhere)).statusCode).toBe(404);
  });
});

describe('the console', () => {
  it('lists each payment’s notes, one Facturapi refused with its reason (hidden from the member)', async () => {
    const { cookie, mercadoPagoId, paymentId, factura } = await invoiced();
    // a note of $2,000 issued from Facturapi's dashboard leaves $499 to note
    const dashboard = await fetch(`${facturapi.url}/invoices`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'E',
        customer: {
          legal_name: personaFisica.legalName,
          tax_id: personaFisica.rfc,
          tax_system: '612',
          address: { zip: '06600' },
        },
        use: 'G02',
        payment_form: '01',
        related_documents: [{ relationship: '01', documents: [factura.invoiceUuid] }],
        items: [{ quantity: 1, product: { description: 'Devolución', product_key: '86101700', price: 2000 } }],
      }),
    });
    expect(dashboard.status).toBe(200);
    await refundPart(mercadoPagoId, 300);
    await refundPart(mercadoPagoId, 300);
    const admin = await signedInAs(t, { type: 'Admin' });
    const list = (await memberRequest(t, admin.cookie, 'GET', '/api/admin/facturas')).json() as {
      payments: { paymentId: string; creditNotes: object[] }[];
    };
    expect(list.payments.find((each) => each.paymentId === paymentId)!.creditNotes).toEqual([
      { id: expect.any(String), amountCents: 30_000, state: 'emitida', error: null },
      {
        id: expect.any(String),
        amountCents: 30_000,
        state: 'no_emitida',
        error: 'El importe de la nota de crédito excede el del CFDI relacionado',
      },
    ]);
    expect((await summaryOf(cookie, paymentId)).creditNotes).toMatchObject([{ amountCents: 30_000, state: 'emitida' }]);
  });
});

describe('the privacy export', () => {
  it('includes the member’s notas de crédito', async () => {
    const { user, mercadoPagoId, paymentId } = await invoiced();
    await refundPart(mercadoPagoId, 500);
    const [note] = await notesOf(paymentId);
    const document = await collectMemberData(t.db, user.id);
    expect(document.creditNotes).toEqual([
      expect.objectContaining({ amount: '500.00', invoiceUuid: note!.invoiceUuid, status: 'valid' }),
    ]);
  });
});

describe('the strict Facturapi fake refuses an egreso the SAT would refuse', () => {
  const post = (body: object) =>
    fetch(`${facturapi.url}/invoices`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const egreso = (uuid: string, price: number, related?: object, taxId: string = personaFisica.rfc) => ({
    type: 'E',
    customer: {
      legal_name: personaFisica.legalName,
      tax_id: taxId,
      tax_system: '612',
      address: { zip: '06600' },
    },
    use: 'G02',
    payment_form: '01',
    related_documents: related ?? [{ relationship: '01', documents: [uuid] }],
    items: [{ quantity: 1, product: { description: 'Devolución', product_key: '86101700', price } }],
  });

  it('refuses one without related documents, of more than the factura, or to another receiver; and the factura it relates to is not cancelled first', async () => {
    const { factura } = await invoiced();
    const uuid = factura.invoiceUuid!;
    const without = await post({ ...egreso(uuid, 100), related_documents: undefined });
    expect(without.status).toBe(400);
    expect(await without.json()).toMatchObject({ path: 'related_documents' });
    expect((await post(egreso(uuid, 100, [{ relationship: '99', documents: [uuid] }]))).status).toBe(400);
    expect((await post(egreso('00000000-0000-0000-0000-000000000000', 100))).status).toBe(400);
    expect((await post(egreso(uuid, 2499.01))).status).toBe(400);
    const other = egreso(uuid, 100, undefined, 'PEPJ800101AB1');
    expect((await post(other)).status).toBe(400);
    expect((await post(egreso(uuid, 2000))).status).toBe(200);
    // with $2,000 noted, $500 more would exceed the $2,499 factura
    expect((await post(egreso(uuid, 500))).status).toBe(400);
    const cancelled = await fetch(`${facturapi.url}/invoices/${factura.invoiceId}?motive=02`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${app.apiKey}` },
    });
    expect(cancelled.status).toBe(400);
  });
});

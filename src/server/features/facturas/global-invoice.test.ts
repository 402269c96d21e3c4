import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { globalInvoices, paymentFacturas } from '#server/db/schema/index.ts';
import type { MercadoPagoFake } from '#server/services/payments/simulated-mercadopago.ts';
import type { FacturapiFake } from '#server/services/facturapi/facturapi-fake.testing.ts';
import { createFacturapiClient } from '#server/services/facturapi/facturapi-client.ts';
import { memberRequest } from '#server/features/diplomas/diplomas.testing.ts';
import { paidInPesos, personaFisica, startFacturasApp } from './facturas.testing.ts';
import { createGlobalInvoices, previousMonth } from './global-invoice.ts';

let mercadoPago: MercadoPagoFake;
let facturapi: FacturapiFake;
let t: TestApp;
let app: Awaited<ReturnType<typeof startFacturasApp>>;

beforeAll(async () => {
  app = await startFacturasApp();
  ({ t, mercadoPago, facturapi } = app);
}, 180_000);
afterAll(async () => app.close());

describe('the month’s bounds in Mexico City', () => {
  it('takes the previous month, UTC−6', () => {
    expect(previousMonth(new Date('2026-12-01T05:59:00Z'))).toMatchObject({ key: '2026-10' });
    const december = previousMonth(new Date('2026-12-01T06:00:00Z'));
    expect(december.key).toBe('2026-11');
    expect(december.from.toISOString()).toBe('2026-11-01T06:00:00.000Z');
    expect(december.to.toISOString()).toBe('2026-12-01T06:00:00.000Z');
    expect(previousMonth(new Date('2027-01-15T12:00:00Z')).key).toBe('2026-12');
  });
});

describe('the monthly global invoice', () => {
  it('invoices the receipts nobody invoiced to público en general, once, and the Admin sees it with its PDF and XML', async () => {
    const invoiced = await paidInPesos(t, mercadoPago);
    await memberRequest(t, invoiced.cookie, 'POST', `/api/facturas/${invoiced.paymentId}`, personaFisica);
    const left = await paidInPesos(t, mercadoPago);
    const client = createFacturapiClient({ apiUrl: facturapi.url, apiKey: app.apiKey, backoffMs: 1 });
    // the second day of next month in Mexico City, whatever day the test runs
    const local = new Date(Date.now() - 6 * 3600_000);
    const nextMonth = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 2, 12));
    const job = createGlobalInvoices({ db: t.db, client, now: () => nextMonth });
    await job.run();
    const { key } = previousMonth(nextMonth);
    const [row] = await t.db.select().from(globalInvoices).where(eq(globalInvoices.month, key));
    expect(row).toMatchObject({ status: 'issued', invoiceUuid: expect.any(String) });
    const global = facturapi.invoices.get(row!.invoiceId!)!;
    expect(global.customer).toEqual({ legal_name: 'PUBLICO EN GENERAL', tax_id: 'XAXX010101000' });
    const [leftRow] = await t.db.select().from(paymentFacturas).where(eq(paymentFacturas.paymentId, left.paymentId));
    expect(leftRow).toMatchObject({ invoiceStatus: 'global', invoiceId: row!.invoiceId });
    const [invoicedRow] = await t.db
      .select()
      .from(paymentFacturas)
      .where(eq(paymentFacturas.paymentId, invoiced.paymentId));
    expect(invoicedRow!.invoiceStatus).toBe('valid');
    expect(facturapi.receipts.get(invoicedRow!.receiptId!)!.status).toBe('invoiced_to_customer');
    // the member can no longer ask for it, nor download the global invoice (everyone's receipts)
    const mine = (await memberRequest(t, left.cookie, 'GET', '/api/facturas')).json();
    expect(mine.payments[0]).toMatchObject({ state: 'global' });
    expect((await memberRequest(t, left.cookie, 'GET', `/api/facturas/${left.paymentId}/pdf`)).statusCode).toBe(404);
    const asked = await memberRequest(t, left.cookie, 'POST', `/api/facturas/${left.paymentId}`, personaFisica);
    expect(asked.json()).toMatchObject({ state: 'global' });
    // a second run issues nothing more
    const count = facturapi.invoices.size;
    await job.run();
    expect(facturapi.invoices.size).toBe(count);

    const admin = await signedInAs(t, { type: 'Admin' });
    const list = await memberRequest(t, admin.cookie, 'GET', '/api/admin/facturas/global');
    expect(list.json().invoices).toEqual([expect.objectContaining({ month: key, status: 'issued' })]);
    const pdf = await memberRequest(t, admin.cookie, 'GET', `/api/admin/facturas/global/${key}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const xml = await memberRequest(t, admin.cookie, 'GET', `/api/admin/facturas/global/${key}/xml`);
    expect(xml.body).toContain('Rfc="XAXX010101000"');
    const member = await signedInAs(t, { type: 'Premium' });
    expect((await memberRequest(t, member.cookie, 'GET', `/api/admin/facturas/global/${key}/pdf`)).statusCode).toBe(
      403,
    );
  });

  it('records a month with no receipt left open, and asks no more', async () => {
    const client = createFacturapiClient({ apiUrl: facturapi.url, apiKey: app.apiKey, backoffMs: 1 });
    const longAgo = new Date('2020-03-10T12:00:00Z');
    const job = createGlobalInvoices({ db: t.db, client, now: () => longAgo });
    await job.run();
    const [row] = await t.db.select().from(globalInvoices).where(eq(globalInvoices.month, '2020-02'));
    expect(row).toMatchObject({ status: 'none', invoiceId: null });
  });

  it('is issued at the Admin’s request for last month, once; nobody else may ask', async () => {
    const left = await paidInPesos(t, mercadoPago);
    const { key, from } = previousMonth(new Date());
    // the receipt was made last month, as Facturapi keeps it
    const [row] = await t.db.select().from(paymentFacturas).where(eq(paymentFacturas.paymentId, left.paymentId));
    facturapi.receipts.get(row!.receiptId!)!.date = new Date(from.getTime() + 86_400_000);
    const url = '/api/admin/facturas/global';
    expect((await t.app.inject({ method: 'POST', url })).statusCode).toBe(401);
    const member = await signedInAs(t, { type: 'Premium' });
    expect((await memberRequest(t, member.cookie, 'POST', url, {})).statusCode).toBe(403);
    expect(await t.db.select().from(globalInvoices).where(eq(globalInvoices.month, key))).toEqual([]);
    const admin = await signedInAs(t, { type: 'Admin' });
    const issued = await memberRequest(t, admin.cookie, 'POST', url, {});
    expect(issued.statusCode).toBe(200);
    expect(issued.json().invoices).toContainEqual(expect.objectContaining({ month: key, status: 'issued' }));
    const mine = (await memberRequest(t, left.cookie, 'GET', '/api/facturas')).json();
    expect(mine.payments[0]).toMatchObject({ state: 'global' });
    const count = facturapi.invoices.size;
    expect((await memberRequest(t, admin.cookie, 'POST', url, {})).statusCode).toBe(200);
    expect(facturapi.invoices.size).toBe(count);
  });
});

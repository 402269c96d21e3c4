import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { paymentFacturas, payments } from '#server/db/schema/index.ts';
import { startFacturapiFake, type FacturapiFake } from '#server/services/facturapi/facturapi-fake.testing.ts';
import { memberRequest } from '#server/features/diplomas/diplomas.testing.ts';
import { pressCheckout, subscribeAndApprove } from '#server/features/payments/payments.testing.ts';
import { personaFisica, personaMoral, retryNow } from './facturas.testing.ts';

let facturapi: FacturapiFake;
let t: TestApp;
const apiKey = 'sk_test_cxvet';

beforeAll(async () => {
  facturapi = await startFacturapiFake({ apiKey });
  t = await createTestApp({ paymentsProviders: ['simulado'], facturapi: { apiUrl: facturapi.url, apiKey } });
}, 180_000);
afterAll(async () => {
  await t.close();
  await facturapi.close();
});

/** A member who paid the monthly plan in dollars (the simulated PayPal): their approved payment. */
async function paidInDollars() {
  const member = await signedInAs(t, { type: 'Gratis' });
  const subscriptionId = await subscribeAndApprove(t, member.cookie);
  const [payment] = await t.db.select().from(payments).where(eq(payments.userId, member.user.id));
  expect(payment).toMatchObject({ currency: 'USD', result: 'COMPLETADO' });
  return { ...member, subscriptionId, payment: payment! };
}

const withRate = { ...personaMoral, exchange: 17.2543 };
const adminRow = async (cookie: string, paymentId: string) =>
  (
    (await memberRequest(t, cookie, 'GET', '/api/admin/facturas')).json() as {
      payments: { paymentId: string; state: string }[];
    }
  ).payments.find((each) => each.paymentId === paymentId);
const dollarInvoices = () => [...facturapi.invoices.values()].filter((each) => each.currency === 'USD');
const facturaOf = async (paymentId: string) =>
  (await t.db.select().from(paymentFacturas).where(eq(paymentFacturas.paymentId, paymentId)))[0];

describe('the Admin’s factura of a payment in dollars', () => {
  it('gives the payment no receipt; only an Admin invoices it, in USD with the rate and forma de pago 31', async () => {
    const { cookie, payment } = await paidInDollars();
    expect(await facturaOf(payment.id)).toBeUndefined();
    const url = `/api/admin/facturas/${payment.id}`;
    expect((await t.app.inject({ method: 'POST', url, payload: withRate })).statusCode).toBe(401);
    for (const type of ['Gratis', 'Premium'] as const) {
      const other = await signedInAs(t, { type });
      expect((await memberRequest(t, other.cookie, 'POST', url, withRate)).statusCode).toBe(403);
    }
    // the member, even the payer, has no 'Solicitar factura' for it
    expect((await memberRequest(t, cookie, 'POST', url, withRate)).statusCode).toBe(403);
    expect((await memberRequest(t, cookie, 'POST', `/api/facturas/${payment.id}`, personaFisica)).statusCode).toBe(409);
    const admin = await signedInAs(t, { type: 'Admin' });
    expect(await adminRow(admin.cookie, payment.id)).toMatchObject({ currency: 'USD', state: 'no_disponible' });
    const issued = await memberRequest(t, admin.cookie, 'POST', url, withRate);
    expect(issued.statusCode).toBe(200);
    expect(issued.json()).toMatchObject({ state: 'emitida', rfc: 'HVE010101AB1', invoiceUuid: expect.any(String) });
    const row = (await facturaOf(payment.id))!;
    expect(row).toMatchObject({ paymentForm: '31', receiptId: null, invoiceStatus: 'valid' });
    expect(facturapi.invoices.get(row.invoiceId!)).toMatchObject({
      currency: 'USD',
      exchange: 17.2543,
      payment_form: '31',
      total: payment.amountCents / 100,
      customer: { tax_id: 'HVE010101AB1' },
    });
    // the member's history shows it, and the payer downloads it
    const mine = (await memberRequest(t, cookie, 'GET', '/api/facturas')).json() as {
      payments: { paymentId: string }[];
    };
    expect(mine.payments.find((each) => each.paymentId === payment.id)).toMatchObject({
      state: 'emitida',
      rfc: 'HVE010101AB1',
    });
    const xml = await memberRequest(t, cookie, 'GET', `/api/facturas/${payment.id}/xml`);
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toContain(row.invoiceUuid!);
  });

  it('asks for the exchange rate under its field and sends nothing without a valid one', async () => {
    const { payment } = await paidInDollars();
    const admin = await signedInAs(t, { type: 'Admin' });
    const before = facturapi.requests.length;
    const url = `/api/admin/facturas/${payment.id}`;
    const missing = await memberRequest(t, admin.cookie, 'POST', url, personaMoral);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({
      exchange: 'Escribe el tipo de cambio del día del pago, en pesos por dólar.',
    });
    for (const exchange of [0, -17, 17.123_456_7]) {
      const wrong = await memberRequest(t, admin.cookie, 'POST', url, { ...personaMoral, exchange });
      expect(wrong.statusCode).toBe(400);
      expect(Object.keys(wrong.json().fields)).toEqual(['exchange']);
    }
    expect(facturapi.requests.length).toBe(before);
    expect(await facturaOf(payment.id)).toBeUndefined();
  });

  it('issues one factura for two requests at once; a second request answers the one issued', async () => {
    const { payment } = await paidInDollars();
    const admin = await signedInAs(t, { type: 'Admin' });
    const before = dollarInvoices().length;
    const url = `/api/admin/facturas/${payment.id}`;
    const answers = await Promise.all([
      memberRequest(t, admin.cookie, 'POST', url, withRate),
      memberRequest(t, admin.cookie, 'POST', url, withRate),
    ]);
    expect(answers.map((each) => each.statusCode)).toEqual([200, 200]);
    expect(dollarInvoices().length).toBe(before + 1);
    const again = await memberRequest(t, admin.cookie, 'POST', url, { ...personaFisica, exchange: 18 });
    expect(again.json()).toMatchObject({ state: 'emitida', rfc: 'HVE010101AB1' });
    expect(dollarInvoices().length).toBe(before + 1);
  });

  it('waits En proceso while Facturapi is down, then the retried job issues it once', async () => {
    const { cookie, payment } = await paidInDollars();
    const admin = await signedInAs(t, { type: 'Admin' });
    const before = dollarInvoices().length;
    facturapi.fail('POST /v2/invoices', 3);
    const answer = await memberRequest(t, admin.cookie, 'POST', `/api/admin/facturas/${payment.id}`, withRate);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ state: 'en_proceso' });
    const mine = (await memberRequest(t, cookie, 'GET', '/api/facturas')).json() as {
      payments: { paymentId: string }[];
    };
    expect(mine.payments.find((each) => each.paymentId === payment.id)).toMatchObject({ state: 'en_proceso' });
    await retryNow(t);
    expect(await adminRow(admin.cookie, payment.id)).toMatchObject({ state: 'emitida', rfc: 'HVE010101AB1' });
    expect(dollarInvoices().length).toBe(before + 1);
  });

  it('is cancelled with a SAT motive like any other', async () => {
    const { cookie, payment } = await paidInDollars();
    const admin = await signedInAs(t, { type: 'Admin' });
    await memberRequest(t, admin.cookie, 'POST', `/api/admin/facturas/${payment.id}`, withRate);
    const cancelled = await memberRequest(t, admin.cookie, 'POST', `/api/admin/facturas/${payment.id}/cancel`, {
      motive: '02',
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ state: 'cancelada', cancellationMotive: '02' });
    const row = (await facturaOf(payment.id))!;
    expect(facturapi.invoices.get(row.invoiceId!)).toMatchObject({ status: 'canceled', motive: '02' });
    const mine = (await memberRequest(t, cookie, 'GET', '/api/facturas')).json() as {
      payments: { paymentId: string }[];
    };
    expect(mine.payments.find((each) => each.paymentId === payment.id)).toMatchObject({ state: 'cancelada' });
  });

  it('is cancelled with motive 02 once PayPal refunds the payment; a refund of a payment without one changes nothing', async () => {
    const { cookie, subscriptionId, payment } = await paidInDollars();
    const admin = await signedInAs(t, { type: 'Admin' });
    await memberRequest(t, admin.cookie, 'POST', `/api/admin/facturas/${payment.id}`, withRate);
    await pressCheckout(t, subscriptionId, 'refund');
    const row = (await facturaOf(payment.id))!;
    expect(row).toMatchObject({ invoiceStatus: 'canceled', cancellationMotive: '02' });
    expect(facturapi.invoices.get(row.invoiceId!)).toMatchObject({ status: 'canceled', motive: '02' });
    const mine = (await memberRequest(t, cookie, 'GET', '/api/facturas')).json() as {
      payments: { paymentId: string; state: string }[];
    };
    expect(mine.payments.find((each) => each.paymentId === payment.id)).toMatchObject({ state: 'cancelada' });

    const other = await paidInDollars();
    const invoicesBefore = dollarInvoices().length;
    await pressCheckout(t, other.subscriptionId, 'refund');
    expect(await facturaOf(other.payment.id)).toBeUndefined();
    expect(dollarInvoices().length).toBe(invoicesBefore);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { fiscalProfiles, paymentFacturas } from '#server/db/schema/index.ts';
import type { MercadoPagoFake } from '#server/services/payments/simulated-mercadopago.ts';
import type { FacturapiFake } from '#server/services/facturapi/facturapi-fake.testing.ts';
import { memberRequest } from '#server/features/diplomas/diplomas.testing.ts';
import { collectMemberData } from '#server/features/privacy/privacy.export.ts';
import { deliver, paidInPesos, personaFisica, retryNow, startFacturasApp } from './facturas.testing.ts';

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
const summaryOf = async (cookie: string, paymentId: string) =>
  (
    (await memberRequest(t, cookie, 'GET', '/api/facturas')).json() as { payments: { paymentId: string }[] }
  ).payments.find((each) => each.paymentId === paymentId);

describe('a receipt for every approved payment in pesos', () => {
  it('creates an OXXO payment’s receipt (forma de pago 01) with its self-invoice link', async () => {
    const { cookie, paymentId } = await paidInPesos(t, mercadoPago, 'oxxo');
    const row = await facturaOf(paymentId);
    expect(row).toMatchObject({ paymentForm: '01' });
    const receipt = facturapi.receipts.get(row.receiptId!)!;
    expect(receipt).toMatchObject({ payment_form: '01', total: 2499, status: 'open', external_id: paymentId });
    expect(await summaryOf(cookie, paymentId)).toMatchObject({
      state: 'solicitable',
      selfInvoiceUrl: receipt.self_invoice_url,
    });
  });

  it('gives a SPEI payment forma de pago 03', async () => {
    const { paymentId } = await paidInPesos(t, mercadoPago, 'clabe');
    const row = await facturaOf(paymentId);
    expect(facturapi.receipts.get(row.receiptId!)).toMatchObject({ payment_form: '03' });
  });

  it('keeps the receipt queued while Facturapi is down: the member sees En proceso, then it is created once', async () => {
    facturapi.fail('POST /v2/receipts', 3);
    const { cookie, paymentId } = await paidInPesos(t, mercadoPago);
    expect((await facturaOf(paymentId)).receiptId).toBeNull();
    expect(await summaryOf(cookie, paymentId)).toMatchObject({ state: 'en_proceso' });
    await retryNow(t);
    const row = await facturaOf(paymentId);
    expect(row.receiptId).not.toBeNull();
    expect([...facturapi.receipts.values()].filter((each) => each.external_id === paymentId)).toHaveLength(1);
    expect(await summaryOf(cookie, paymentId)).toMatchObject({ state: 'solicitable' });
  });

  it('gives a USD payment no receipt', async () => {
    const { cookie } = await signedInAs(t, { type: 'Premium' });
    const mine = (await memberRequest(t, cookie, 'GET', '/api/facturas')).json();
    expect(mine).toMatchObject({ available: true, payments: [] });
  });
});

describe('Solicitar factura', () => {
  it('issues the factura from the receipt once, keeps the fiscal data, and a second request shows it issued', async () => {
    const { cookie, user, paymentId } = await paidInPesos(t, mercadoPago);
    const first = await memberRequest(t, cookie, 'POST', `/api/facturas/${paymentId}`, {
      ...personaFisica,
      rfc: ' gode-561231-gr8 ',
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ state: 'emitida', rfc: 'GODE561231GR8' });
    const row = await facturaOf(paymentId);
    const invoice = facturapi.invoices.get(row.invoiceId!)!;
    expect(invoice).toMatchObject({ customer: { tax_id: 'GODE561231GR8' }, use: 'G03', payment_form: '01' });
    expect(facturapi.receipts.get(row.receiptId!)!.status).toBe('invoiced_to_customer');
    const [profile] = await t.db.select().from(fiscalProfiles).where(eq(fiscalProfiles.userId, user.id));
    expect(profile).toMatchObject({ rfc: 'GODE561231GR8', taxSystem: '612', zip: '06600' });
    expect((await memberRequest(t, cookie, 'GET', '/api/facturas')).json().fiscalData).toMatchObject({
      rfc: 'GODE561231GR8',
    });
    const invoicesBefore = facturapi.invoices.size;
    const second = await memberRequest(t, cookie, 'POST', `/api/facturas/${paymentId}`, personaFisica);
    expect(second.json()).toMatchObject({ state: 'emitida' });
    expect(facturapi.invoices.size).toBe(invoicesBefore);
  });

  it('keeps the request while Facturapi is down: En proceso, then issued by the retried job', async () => {
    const { cookie, paymentId } = await paidInPesos(t, mercadoPago);
    const row = await facturaOf(paymentId);
    facturapi.fail(`POST /v2/receipts/${row.receiptId}/invoice`, 3);
    const answer = await memberRequest(t, cookie, 'POST', `/api/facturas/${paymentId}`, personaFisica);
    expect(answer.json()).toMatchObject({ state: 'en_proceso' });
    // a second request while the first waits changes nothing
    expect((await memberRequest(t, cookie, 'POST', `/api/facturas/${paymentId}`, personaFisica)).json()).toMatchObject({
      state: 'en_proceso',
    });
    await retryNow(t);
    expect(await summaryOf(cookie, paymentId)).toMatchObject({ state: 'emitida', rfc: 'GODE561231GR8' });
  });

  it('issues one factura for two requests at once', async () => {
    const { cookie, paymentId } = await paidInPesos(t, mercadoPago);
    const before = facturapi.invoices.size;
    const answers = await Promise.all([
      memberRequest(t, cookie, 'POST', `/api/facturas/${paymentId}`, personaFisica),
      memberRequest(t, cookie, 'POST', `/api/facturas/${paymentId}`, personaFisica),
    ]);
    expect(answers.map((each) => each.statusCode)).toEqual([200, 200]);
    expect(facturapi.invoices.size).toBe(before + 1);
    expect(await summaryOf(cookie, paymentId)).toMatchObject({ state: 'emitida' });
  });

  it('takes the factura already issued through the self-invoice link instead of issuing another', async () => {
    const { cookie, paymentId } = await paidInPesos(t, mercadoPago);
    const row = await facturaOf(paymentId);
    const selfInvoiced = await fetch(`${facturapi.url}/receipts/${row.receiptId}/invoice`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        customer: { legal_name: 'OTRA PERSONA', tax_id: 'PEPJ800101AB1', tax_system: '612', address: { zip: '01000' } },
        use: 'G03',
      }),
    });
    expect(selfInvoiced.status).toBe(200);
    const before = facturapi.invoices.size;
    const answer = await memberRequest(t, cookie, 'POST', `/api/facturas/${paymentId}`, personaFisica);
    expect(answer.json()).toMatchObject({ state: 'emitida' });
    expect(facturapi.invoices.size).toBe(before);
    expect((await facturaOf(paymentId)).invoiceId).toBe(((await selfInvoiced.json()) as { id: string }).id);
  });

  it('refuses bad fiscal data under its field and sends nothing to Facturapi', async () => {
    const { cookie, paymentId } = await paidInPesos(t, mercadoPago);
    const sent = facturapi.requests.length;
    const cases: [object, string, string][] = [
      [{ rfc: 'GODE561331GR8' }, 'rfc', 'El RFC no es válido: revisa letras, fecha y homoclave.'],
      [{ rfc: 'XAXX010101000' }, 'rfc', 'Escribe tu propio RFC, no el genérico de público en general.'],
      [{ taxSystem: '601' }, 'taxSystem', 'Ese régimen fiscal es de personas morales; tu RFC es de persona física.'],
      [
        { rfc: 'HVE010101AB1', taxSystem: '612' },
        'taxSystem',
        'Ese régimen fiscal es de personas físicas; tu RFC es de persona moral.',
      ],
      [{ taxSystem: '616', cfdiUse: 'G03' }, 'cfdiUse', 'Ese uso de CFDI no corresponde a tu régimen fiscal.'],
      [{ zip: '6600' }, 'zip', 'El código postal fiscal tiene cinco dígitos.'],
      [
        { legalName: '  ' },
        'legalName',
        'Escribe la razón social o el nombre como aparece en la Constancia de Situación Fiscal.',
      ],
    ];
    for (const [change, field, message] of cases) {
      const answer = await memberRequest(t, cookie, 'POST', `/api/facturas/${paymentId}`, {
        ...personaFisica,
        ...change,
      });
      expect(answer.statusCode, JSON.stringify(change)).toBe(400);
      expect(answer.json().fields).toEqual({ [field]: message });
    }
    expect(facturapi.requests.length).toBe(sent);
    expect(await summaryOf(cookie, paymentId)).toMatchObject({ state: 'solicitable' });
  });

  it('lets nobody ask for another member’s factura', async () => {
    const { paymentId } = await paidInPesos(t, mercadoPago);
    const other = await signedInAs(t, { type: 'Premium' });
    const answer = await memberRequest(t, other.cookie, 'POST', `/api/facturas/${paymentId}`, personaFisica);
    expect(answer.statusCode).toBe(404);
    const anonymous = await t.app.inject({ method: 'POST', url: `/api/facturas/${paymentId}`, payload: personaFisica });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('Descargar PDF and XML', () => {
  it('serves the factura to its owner and an Admin only', async () => {
    const { cookie, paymentId } = await paidInPesos(t, mercadoPago);
    await memberRequest(t, cookie, 'POST', `/api/facturas/${paymentId}`, personaFisica);
    const pdf = await memberRequest(t, cookie, 'GET', `/api/facturas/${paymentId}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.body.startsWith('%PDF')).toBe(true);
    const xml = await memberRequest(t, cookie, 'GET', `/api/facturas/${paymentId}/xml`);
    expect(xml.headers['content-type']).toMatch(/^application\/xml/);
    expect(xml.body).toContain('Rfc="GODE561231GR8"');
    const admin = await signedInAs(t, { type: 'Admin' });
    expect((await memberRequest(t, admin.cookie, 'GET', `/api/facturas/${paymentId}/xml`)).statusCode).toBe(200);
    const other = await signedInAs(t, { type: 'Premium' });
    expect((await memberRequest(t, other.cookie, 'GET', `/api/facturas/${paymentId}/pdf`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/facturas/${paymentId}/pdf` })).statusCode).toBe(401);
  });

  it('has nothing to download before the factura is issued', async () => {
    const { cookie, paymentId } = await paidInPesos(t, mercadoPago);
    expect((await memberRequest(t, cookie, 'GET', `/api/facturas/${paymentId}/pdf`)).statusCode).toBe(404);
  });
});

describe('a refund', () => {
  it('cancels the payment’s factura with motive 02 and the history shows it', async () => {
    const { cookie, mercadoPagoId, paymentId } = await paidInPesos(t, mercadoPago);
    await memberRequest(t, cookie, 'POST', `/api/facturas/${paymentId}`, personaFisica);
    mercadoPago.refund(mercadoPagoId);
    await deliver(t, mercadoPago.notification('payment', mercadoPagoId));
    const row = await facturaOf(paymentId);
    expect(row).toMatchObject({ invoiceStatus: 'canceled', cancellationMotive: '02' });
    expect(facturapi.invoices.get(row.invoiceId!)).toMatchObject({
      status: 'canceled',
      cancellation_status: 'accepted',
    });
    expect(await summaryOf(cookie, paymentId)).toMatchObject({ state: 'cancelada' });
  });
});

describe('the privacy export', () => {
  it('includes the member’s fiscal data and facturas', async () => {
    const { cookie, user, paymentId } = await paidInPesos(t, mercadoPago);
    await memberRequest(t, cookie, 'POST', `/api/facturas/${paymentId}`, personaFisica);
    const document = await collectMemberData(t.db, user.id);
    expect(document.fiscalData).toMatchObject({ rfc: 'GODE561231GR8', taxSystem: '612', cfdiUse: 'G03', zip: '06600' });
    expect(document.facturas).toEqual([expect.objectContaining({ rfc: 'GODE561231GR8', status: 'valid' })]);
  });
});

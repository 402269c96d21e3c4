import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { fiscalProfiles, paymentFacturas } from '#server/db/schema/index.ts';
import { startMercadoPagoFake, type MercadoPagoFake } from '#server/services/payments/simulated-mercadopago.ts';
import { startFacturapiFake, type FacturapiFake } from '#server/services/facturapi/facturapi-fake.testing.ts';
import { memberRequest } from '#server/features/diplomas/diplomas.testing.ts';
import { paidInPesos, personaFisica, personaMoral } from './facturas.testing.ts';

let mercadoPago: MercadoPagoFake;
let facturapi: FacturapiFake;
let t: TestApp;
let withoutKey: TestApp;
const accessToken = 'TEST-cxvet-token';
const webhookSecret = 'secreto-de-notificaciones';
const apiKey = 'sk_test_cxvet';

beforeAll(async () => {
  mercadoPago = await startMercadoPagoFake({ accessToken, webhookSecret });
  facturapi = await startFacturapiFake({ apiKey });
  t = await createTestApp({
    paymentsProviders: ['simulado'],
    mercadopago: { apiUrl: mercadoPago.url, accessToken, webhookSecret },
    facturapi: { apiUrl: facturapi.url, apiKey },
  });
  withoutKey = await createTestApp({
    paymentsProviders: ['simulado'],
    mercadopago: { apiUrl: mercadoPago.url, accessToken, webhookSecret },
  });
}, 180_000);
afterAll(async () => {
  await t.close();
  await withoutKey.close();
  await mercadoPago.close();
  await facturapi.close();
});

const facturaOf = async (paymentId: string) =>
  (await t.db.select().from(paymentFacturas).where(eq(paymentFacturas.paymentId, paymentId)))[0]!;

describe('the Admin’s facturas', () => {
  it('lists payments in pesos with their receipt and factura; only an Admin', async () => {
    const { user, paymentId } = await paidInPesos(t, mercadoPago);
    const admin = await signedInAs(t, { type: 'Admin' });
    const list = await memberRequest(t, admin.cookie, 'GET', '/api/admin/facturas');
    expect(list.statusCode).toBe(200);
    const row = (list.json() as { payments: { paymentId: string }[] }).payments.find(
      (each) => each.paymentId === paymentId,
    );
    expect(row).toMatchObject({
      userId: user.id,
      currency: 'MXN',
      state: 'solicitable',
      receiptId: expect.any(String),
    });
    for (const type of ['Premium', 'Gratis', 'Legacy'] as const) {
      const member = await signedInAs(t, { type });
      expect((await memberRequest(t, member.cookie, 'GET', '/api/admin/facturas')).statusCode).toBe(403);
      expect(
        (await memberRequest(t, member.cookie, 'POST', `/api/admin/facturas/${paymentId}`, personaMoral)).statusCode,
      ).toBe(403);
      expect(
        (await memberRequest(t, member.cookie, 'POST', `/api/admin/facturas/${paymentId}/cancel`, { motive: '02' }))
          .statusCode,
      ).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/facturas' })).statusCode).toBe(401);
  });

  it('issues a factura to any RFC (an institution paying for its staff) without touching the member’s fiscal data', async () => {
    const { user, paymentId } = await paidInPesos(t, mercadoPago);
    const admin = await signedInAs(t, { type: 'Admin' });
    const answer = await memberRequest(t, admin.cookie, 'POST', `/api/admin/facturas/${paymentId}`, personaMoral);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ state: 'emitida', rfc: 'HVE010101AB1', invoiceUuid: expect.any(String) });
    expect(facturapi.invoices.get((await facturaOf(paymentId)).invoiceId!)).toMatchObject({
      customer: { tax_id: 'HVE010101AB1', legal_name: 'HOSPITAL VETERINARIO DEL CENTRO' },
    });
    expect(await t.db.select().from(fiscalProfiles).where(eq(fiscalProfiles.userId, user.id))).toEqual([]);
  });

  it('cancels a factura only with a SAT motive 01–04', async () => {
    const { cookie, paymentId } = await paidInPesos(t, mercadoPago);
    await memberRequest(t, cookie, 'POST', `/api/facturas/${paymentId}`, personaFisica);
    const admin = await signedInAs(t, { type: 'Admin' });
    const cancelUrl = `/api/admin/facturas/${paymentId}/cancel`;
    const wrong = await memberRequest(t, admin.cookie, 'POST', cancelUrl, { motive: '05' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual({ motive: 'Elige un motivo de cancelación del SAT (01 a 04).' });
    const withoutSubstitute = await memberRequest(t, admin.cookie, 'POST', cancelUrl, { motive: '01' });
    expect(withoutSubstitute.statusCode).toBe(400);
    expect(withoutSubstitute.json().fields.motive).toMatch(/^Facturapi no canceló la factura: /);
    const cancelled = await memberRequest(t, admin.cookie, 'POST', cancelUrl, { motive: '03' });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ state: 'cancelada', cancellationMotive: '03' });
    const again = await memberRequest(t, admin.cookie, 'POST', cancelUrl, { motive: '03' });
    expect(again.statusCode).toBe(404);
    const member = (await memberRequest(t, cookie, 'GET', '/api/facturas')).json() as {
      payments: { paymentId: string; state: string }[];
    };
    expect(member.payments.find((each) => each.paymentId === paymentId)?.state).toBe('cancelada');
  });
});

describe('without FACTURAPI_KEY', () => {
  it('invoices nothing and says Facturación no disponible', async () => {
    const { cookie, paymentId } = await paidInPesos(withoutKey, mercadoPago);
    const mine = (await memberRequest(withoutKey, cookie, 'GET', '/api/facturas')).json();
    expect(mine).toMatchObject({ available: false, payments: [{ paymentId, state: 'no_disponible' }] });
    expect(await withoutKey.db.select().from(paymentFacturas)).toEqual([]);
    const asked = await memberRequest(withoutKey, cookie, 'POST', `/api/facturas/${paymentId}`, personaFisica);
    expect(asked.statusCode).toBe(409);
  });
});

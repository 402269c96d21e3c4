import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { diplomaUsers } from '#server/db/schema/index.ts';
import { createDiploma, memberRequest } from '#server/features/diplomas/diplomas.testing.ts';
import { createDemoMercadoPago } from './demo-mercadopago.ts';
import { createMercadoPagoProvider } from './mercadopago-provider.ts';

let t: TestApp;
let dataDir: string;
const secret = 'test-secret-test-secret-test-secret-0123';

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'cxvet-demo-mp-'));
  t = await createTestApp({ seedDemo: true, dataDir, sessionSecret: secret });
}, 180_000);
afterAll(async () => {
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

const enrolled = async (diplomaId: string, userId: string) =>
  (
    await t.db
      .select()
      .from(diplomaUsers)
      .where(and(eq(diplomaUsers.diplomaId, diplomaId), eq(diplomaUsers.userId, userId)))
  ).length > 0;

/** The path on our site of a URL the simulated Mercado Pago gave (a voucher, an init_point). */
const onSite = (url: string) => {
  expect(url.startsWith(`${testPublicUrl}/simulado/mercadopago/`)).toBe(true);
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
});

describe('the demo’s Mercado Pago (simulated provider with the demo content)', () => {
  it('offers OXXO and SPEI, and the voucher page pays it: the notification enrols, as Mercado Pago’s would', async () => {
    const config = await t.app.inject({ url: '/api/payments/config' });
    expect(config.json().pesosMethods).toEqual(['oxxo', 'clabe']);
    const { cookie, user } = await signedInAs(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { values: { costCents: 12_900, costMxnCents: 229_900 } });
    const started = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/pesos`, {
      method: 'oxxo',
    });
    expect(started.statusCode, started.body).toBe(200);
    const voucherPath = onSite(started.json().instructionsUrl);
    const voucher = await t.app.inject({ url: voucherPath });
    expect(voucher.statusCode).toBe(200);
    expect(voucher.body).toContain('$2299.00 MXN');
    expect(voucher.body).toContain('Simular pago en OXXO');
    expect(await enrolled(diploma.id, user.id)).toBe(false);

    const paid = await t.app.inject({
      method: 'POST',
      url: `${voucherPath}/simular`,
      ...form({ outcome: 'approved' }),
    });
    expect(paid.statusCode).toBe(303);
    await t.app.services.jobs.runDue();
    expect(await enrolled(diploma.id, user.id)).toBe(true);
    // paid once: the page no longer offers it
    expect((await t.app.inject({ url: voucherPath })).body).not.toContain('Simular pago en OXXO');
  });

  it('lets a voucher expire without access', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { values: { costCents: 12_900, costMxnCents: 229_900 } });
    const started = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/pesos`, {
      method: 'clabe',
    });
    const voucherPath = onSite(started.json().instructionsUrl);
    expect((await t.app.inject({ url: voucherPath })).body).toContain('Simular transferencia');
    await t.app.inject({ method: 'POST', url: `${voucherPath}/simular`, ...form({ outcome: 'expired' }) });
    await t.app.services.jobs.runDue();
    expect(await enrolled(diploma.id, user.id)).toBe(false);
    const pending = await memberRequest(t, cookie, 'GET', '/api/profile/payments/pending');
    expect(pending.json().payments).toEqual([]);
  });

  it('takes a card on its page under our site, and the return enrols', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { values: { costCents: 12_900, costMxnCents: 229_900 } });
    const started = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/pesos/card`);
    expect(started.statusCode, started.body).toBe(200);
    const checkoutPath = onSite(started.json().approvalUrl);
    const checkout = await t.app.inject({ url: checkoutPath });
    expect(checkout.body).toContain('Pagar con tarjeta');
    // the page's form posts under our site too
    expect(checkout.body).toContain('action="/simulado/mercadopago/checkout/v1/pay"');
    const preference = new URL(started.json().approvalUrl).searchParams.get('pref_id')!;
    const pay = await t.app.inject({
      method: 'POST',
      url: '/simulado/mercadopago/checkout/v1/pay',
      ...form({ pref_id: preference, outcome: 'approved' }),
    });
    expect(pay.statusCode).toBe(302);
    const back = new URL(pay.headers.location as string);
    expect(back.pathname).toBe(`/mis-diplomados/diplomado-preview/${diploma.id}`);
    const confirm = await memberRequest(t, cookie, 'POST', '/api/payments/mercadopago/checkout/confirm', {
      paymentId: back.searchParams.get('payment_id')!,
    });
    expect(confirm.json()).toEqual({ status: 'COMPLETED' });
    expect(await enrolled(diploma.id, user.id)).toBe(true);
  });

  it('serves the payer’s pages only: its API is reached in process, never from a browser', async () => {
    const { cookie } = await signedInAs(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { values: { costCents: 12_900, costMxnCents: 229_900 } });
    const started = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/pesos`, {
      method: 'oxxo',
    });
    const paymentId = started.json().paymentId as string;
    for (const url of [`/simulado/mercadopago/v1/payments/${paymentId}`, '/simulado/mercadopago/preapproval']) {
      expect((await t.app.inject({ url })).statusCode).toBe(404);
    }
  });

  it('keeps its payments across a restart, beside the database', async () => {
    const file = path.join(dataDir, 'mercadopago-simulado.json');
    expect((await stat(file)).size).toBeGreaterThan(0);
    const { cookie } = await signedInAs(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { values: { costCents: 12_900, costMxnCents: 229_900 } });
    const started = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/pesos`, {
      method: 'oxxo',
    });
    // another process of the demo (a restart) reads the same file back
    const again = createDemoMercadoPago({ publicUrl: testPublicUrl, dataDir, secret });
    const provider = createMercadoPagoProvider(again.providerOptions);
    expect(await provider.getPayment(started.json().paymentId)).toMatchObject({ status: 'pending', methodId: 'oxxo' });
  });
});

describe('outside the demo', () => {
  it('offers no payment in pesos with the simulated provider alone', async () => {
    const plain = await createTestApp();
    try {
      expect((await plain.app.inject({ url: '/api/payments/config' })).json().pesosMethods).toEqual([]);
      expect((await plain.app.inject({ url: '/simulado/mercadopago/voucher/1' })).statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { startMercadoPagoFake, type MercadoPagoFake } from './simulated-mercadopago.ts';
import { createMercadoPagoProvider, mercadoPagoManifest, type MercadoPagoOptions } from './mercadopago-provider.ts';
import { ProviderError } from './payment-provider.ts';

let fake: MercadoPagoFake;
const accessToken = 'TEST-0000-ficha';
const webhookSecret = 'secreto-de-notificaciones';

beforeAll(async () => {
  fake = await startMercadoPagoFake({ accessToken, webhookSecret });
});
afterAll(async () => {
  await fake.close();
});

const provider = (extra: Partial<MercadoPagoOptions> = {}) =>
  createMercadoPagoProvider({ apiUrl: fake.url, accessToken, webhookSecret, backoffMs: 5, ...extra });

const preapprovalInput = {
  reason: 'CxVet Premium mensual',
  amountCents: 19_900,
  frequencyMonths: 1,
  payerEmail: 'socia@example.com',
  externalReference: 'usuario-1:intento-1',
  backUrl: 'https://cxvet.example/perfil',
};
const oxxoInput = (key: string, method: 'oxxo' | 'clabe' = 'oxxo') => ({
  method,
  amountCents: 249_900,
  description: 'Diplomado en cirugía de tejidos blandos',
  payerEmail: 'socia@example.com',
  externalReference: `pago-${key}`,
  notificationUrl: 'https://cxvet.example/api/payments/webhooks/mercadopago',
  expiresAt: new Date(Date.now() + 3 * 86_400_000),
  idempotencyKey: key,
});
const lastRequest = (match: string) =>
  fake.requests.filter((each) => `${each.method} ${each.url}`.startsWith(match)).at(-1)!;

describe('card subscriptions (preapproval)', () => {
  it('creates a pending preapproval in MXN with the plan amount and frequency, and the member goes to its init_point', async () => {
    const created = await provider().createPreapproval({ ...preapprovalInput, idempotencyKey: 'pre-1' });
    expect(created).toMatchObject({
      status: 'pending',
      amountCents: 19_900,
      currency: 'MXN',
      frequency: { count: 1, unit: 'months' },
      externalReference: 'usuario-1:intento-1',
      nextPaymentDate: null,
    });
    expect(created.initPoint).toMatch(/preapproval_id=/);
    const sent = lastRequest('POST /preapproval');
    expect(sent.headers['x-idempotency-key']).toBe('pre-1');
    expect(sent.body).toMatchObject({
      status: 'pending',
      auto_recurring: { frequency: 1, frequency_type: 'months', transaction_amount: 199, currency_id: 'MXN' },
    });
  });

  it('reads back authorized with the next charge date Mercado Pago reports, and its authorized payment', async () => {
    const mp = provider();
    const created = await mp.createPreapproval({ ...preapprovalInput, frequencyMonths: 12, idempotencyKey: 'pre-2' });
    const { authorizedPaymentId, paymentId } = fake.authorize(created.id);
    const read = await mp.getPreapproval(created.id);
    expect(read?.status).toBe('authorized');
    expect(read?.nextPaymentDate?.toISOString()).toBe(fake.preapprovals.get(created.id)!.next_payment_date);
    expect(await mp.getAuthorizedPayment(authorizedPaymentId)).toEqual({
      id: authorizedPaymentId,
      preapprovalId: created.id,
      status: 'processed',
      amountCents: 19_900,
      currency: 'MXN',
      payment: { id: paymentId, status: 'approved', statusDetail: 'accredited' },
    });
  });

  it('reports a rejected charge as rejected, with its status_detail', async () => {
    const mp = provider();
    const created = await mp.createPreapproval({ ...preapprovalInput, idempotencyKey: 'pre-3' });
    fake.authorize(created.id);
    const { authorizedPaymentId } = fake.charge(created.id, 'rejected');
    expect((await mp.getAuthorizedPayment(authorizedPaymentId))?.payment).toMatchObject({
      status: 'rejected',
      statusDetail: 'cc_rejected_insufficient_amount',
    });
  });

  it('cancels a preapproval; a cancelled one is cancelled again without error, and paused is read as paused', async () => {
    const mp = provider();
    const paused = await mp.createPreapproval({ ...preapprovalInput, idempotencyKey: 'pre-4' });
    fake.authorize(paused.id);
    fake.setPreapprovalStatus(paused.id, 'paused');
    expect((await mp.getPreapproval(paused.id))?.status).toBe('paused');
    expect((await mp.getPreapproval(paused.id))?.nextPaymentDate).toBeNull();
    expect((await mp.setPreapprovalStatus(paused.id, 'cancelled', `cancel-${paused.id}`)).status).toBe('cancelled');
    expect((await mp.setPreapprovalStatus(paused.id, 'cancelled', `cancel-${paused.id}`)).status).toBe('cancelled');
    expect(lastRequest('PUT /preapproval').headers['x-idempotency-key']).toBe(`cancel-${paused.id}`);
  });

  it('answers null for a preapproval Mercado Pago does not know', async () => {
    expect(await provider().getPreapproval('2c9380840000000000000000000dead')).toBeNull();
    expect(await provider().getAuthorizedPayment('1')).toBeNull();
  });

  it('refuses bad input with Mercado Pago error shape, named in the ProviderError', async () => {
    const refused = await provider()
      .createPreapproval({ ...preapprovalInput, payerEmail: 'no-es-correo', idempotencyKey: 'pre-bad' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProviderError);
    expect(refused).toMatchObject({ status: 400, details: { name: 'bad_request', issue: '400' } });
  });
});

describe('one-time payments: OXXO and SPEI', () => {
  it('creates a pending OXXO payment with its voucher and expiry, and reads it back approved once paid', async () => {
    const mp = provider();
    const input = oxxoInput('oxxo-1');
    const created = await mp.createOfflinePayment(input);
    expect(created).toMatchObject({
      status: 'pending',
      statusDetail: 'pending_waiting_payment',
      methodId: 'oxxo',
      amountCents: 249_900,
      currency: 'MXN',
      externalReference: 'pago-oxxo-1',
      clabe: null,
    });
    expect(created.instructionsUrl).toMatch(/\/voucher\//);
    expect(created.expiresAt?.getTime()).toBe(input.expiresAt.getTime());
    expect(lastRequest('POST /v1/payments').body).toMatchObject({
      payment_method_id: 'oxxo',
      transaction_amount: 2499,
      payer: { email: 'socia@example.com' },
    });
    fake.approve(created.id);
    expect(await mp.getPayment(created.id)).toMatchObject({ status: 'approved', statusDetail: 'accredited' });
  });

  it('creates a SPEI payment with the CLABE to transfer to', async () => {
    const created = await provider().createOfflinePayment(oxxoInput('spei-1', 'clabe'));
    expect(created).toMatchObject({ status: 'pending', statusDetail: 'pending_waiting_transfer', methodId: 'clabe' });
    expect(created.clabe).toMatch(/^\d{18}$/);
    expect(created.instructionsUrl).toBeTruthy();
  });

  it.each([
    ['expire', 'cancelled', 'expired'],
    ['refund', 'refunded', 'refunded'],
    ['chargeBack', 'charged_back', 'settled'],
    ['dispute', 'in_mediation', 'in_mediation'],
  ] as const)('reads back a payment after %s as %s (%s)', async (action, status, detail) => {
    const mp = provider();
    const created = await mp.createOfflinePayment(oxxoInput(`estado-${action}`));
    if (action !== 'expire') fake.approve(created.id);
    fake[action](created.id);
    const read = await mp.getPayment(created.id);
    expect(read).toMatchObject({ status, statusDetail: detail });
    if (action === 'refund') expect(read?.refundedCents).toBe(249_900);
  });

  it('creates each payment once: retried after a 503 and repeated with the same key, one payment', async () => {
    const mp = provider();
    const before = fake.payments.size;
    const input = oxxoInput('reintento-1');
    fake.fail('POST /v1/payments', 503, 1);
    const created = await mp.createOfflinePayment(input);
    const again = await mp.createOfflinePayment(input);
    expect(again.id).toBe(created.id);
    expect(fake.payments.size).toBe(before + 1);
    const keys = fake.requests.filter((each) => each.method === 'POST' && each.url === '/v1/payments').slice(-3);
    expect(keys.map((each) => each.headers['x-idempotency-key'])).toEqual([
      'reintento-1',
      'reintento-1',
      'reintento-1',
    ]);
  });

  it('refuses the same idempotency key with another request (409), as Mercado Pago does', async () => {
    const mp = provider();
    await mp.createOfflinePayment(oxxoInput('clave-1'));
    const refused = await mp
      .createOfflinePayment({ ...oxxoInput('clave-1'), amountCents: 100 })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 409 });
  });

  it('gives up after its bounded retries when Mercado Pago stays down, naming no answer', async () => {
    fake.fail('GET /v1/payments/', 503, 3);
    const failed = await provider({ retries: 2 })
      .getPayment('1000001')
      .catch((error: unknown) => error);
    expect(failed).toMatchObject({ status: 503 });
  });

  it('times out a call that does not answer', async () => {
    const hanging: typeof fetch = (_url, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
    const failed = await provider({ fetch: hanging, timeoutMs: 20, retries: 1 })
      .getPayment('1')
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ProviderError);
    expect(String((failed as Error).message)).toMatch(/did not answer/);
  });

  it('is refused without the idempotency key by the strict fake, as Mercado Pago does', async () => {
    const response = await fetch(`${fake.url}/v1/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ transaction_amount: 10, payment_method_id: 'oxxo', payer: { email: 'a@b.mx' } }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'bad_request', status: 400 });
  });

  it('reports a rejected access token as 401 (a configuration error in the log)', async () => {
    const errors: string[] = [];
    const log = { warn() {}, error: (_data: unknown, message: string) => void errors.push(message) };
    const failed = await provider({ accessToken: 'TEST-otra', log })
      .getPayment('1')
      .catch((error: unknown) => error);
    expect(failed).toMatchObject({ status: 401 });
    expect(errors.join()).toMatch(/MERCADOPAGO_ACCESS_TOKEN/);
  });
});

describe('one-time card payments (Checkout Pro)', () => {
  it('creates a preference in MXN for cards only and reads back the payment made on its page', async () => {
    const mp = provider();
    const preference = await mp.createCardPreference({
      title: 'Premium anual (pago único)',
      amountCents: 199_900,
      payerEmail: 'socia@example.com',
      externalReference: 'pase-1',
      backUrl: 'https://cxvet.example/perfil',
      notificationUrl: 'https://cxvet.example/api/payments/webhooks/mercadopago',
      expiresAt: new Date(Date.now() + 86_400_000),
      idempotencyKey: 'pref-1',
    });
    expect(preference.initPoint).toMatch(/pref_id=/);
    expect(lastRequest('POST /checkout/preferences').body).toMatchObject({
      items: [{ unit_price: 1999, currency_id: 'MXN', quantity: 1 }],
      payment_methods: { excluded_payment_types: [{ id: 'ticket' }, { id: 'bank_transfer' }, { id: 'atm' }] },
    });
    const paymentId = fake.payPreference(preference.id);
    expect(await mp.getPayment(paymentId)).toMatchObject({
      status: 'approved',
      externalReference: 'pase-1',
      amountCents: 199_900,
      currency: 'MXN',
    });
  });
});

/** The payer's browser on a hosted page: opens it without a token and presses the button with `outcome`. */
async function pressOnPage(pageUrl: string, outcome: 'approved' | 'rejected') {
  const opened = await fetch(pageUrl);
  const html = await opened.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const fields = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]+)">/g)].map((match) => [match[1]!, match[2]!]),
  );
  const pressed = await fetch(new URL(action!, pageUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...fields, outcome }).toString(),
    redirect: 'manual',
  });
  return { opened, html, pressed };
}

describe('hosted pages the payer opens at Mercado Pago', () => {
  it('authorizes a preapproval on its init_point and sends the payer back with its id; the charge is read back', async () => {
    const mp = provider();
    const created = await mp.createPreapproval({ ...preapprovalInput, idempotencyKey: 'page-pre-1' });
    const { opened, html, pressed } = await pressOnPage(created.initPoint!, 'approved');
    expect(opened.status).toBe(200);
    expect(html).toContain('$199.00 MXN');
    expect(pressed.status).toBe(302);
    expect(pressed.headers.get('location')).toBe(`https://cxvet.example/perfil?preapproval_id=${created.id}`);
    const read = await mp.getPreapproval(created.id);
    expect(read).toMatchObject({ status: 'authorized' });
    expect(read?.nextPaymentDate).toBeInstanceOf(Date);
    // a preapproval no longer pending has no page to authorize it again
    expect((await fetch(created.initPoint!)).status).toBe(404);
  });

  it('pays a Checkout Pro preference by card and returns with payment_id, status and external_reference', async () => {
    const mp = provider();
    const preference = await mp.createCardPreference({
      title: 'Premium anual (pago único)',
      amountCents: 199_900,
      payerEmail: 'socia@example.com',
      externalReference: 'pase-pagina',
      backUrl: 'https://cxvet.example/perfil',
      notificationUrl: 'https://cxvet.example/api/payments/webhooks/mercadopago',
      expiresAt: new Date(Date.now() + 86_400_000),
      idempotencyKey: 'page-pref-1',
    });
    const { html, pressed } = await pressOnPage(preference.initPoint, 'approved');
    expect(html).toContain('$1999.00 MXN');
    expect(pressed.status).toBe(302);
    const back = new URL(pressed.headers.get('location')!);
    expect(back.searchParams.get('status')).toBe('approved');
    expect(back.searchParams.get('external_reference')).toBe('pase-pagina');
    expect(back.searchParams.get('preference_id')).toBe(preference.id);
    expect(await mp.getPayment(back.searchParams.get('payment_id')!)).toMatchObject({
      status: 'approved',
      amountCents: 199_900,
    });
  });

  it('shows an OXXO voucher without a token, while the API still refuses a call without one', async () => {
    const payment = await provider().createOfflinePayment(oxxoInput('page-oxxo-1'));
    const voucher = await fetch(payment.instructionsUrl!);
    expect(voucher.status).toBe(200);
    expect(await voucher.text()).toContain('Ficha de pago en OXXO');
    expect((await fetch(`${fake.url}/v1/payments/${payment.id}`)).status).toBe(401);
  });
});

describe('notifications (x-signature)', () => {
  type Hook = { headers: Record<string, string>; query: Record<string, string>; rawBody: string };
  const verify = (hook: Hook) =>
    provider().verifyNotification({ headers: hook.headers, query: hook.query, rawBody: hook.rawBody });

  it('accepts a notification signed with the secret, naming the resource of the query to read back', () => {
    const hook = fake.notification('payment', '123456789');
    expect(verify(hook)).toMatchObject({ type: 'payment', action: 'payment.updated', dataId: '123456789' });
  });

  it('signs an alphanumeric data.id lower-cased, as Mercado Pago does', () => {
    const hook = fake.notification('subscription_preapproval', '2C938084ABCDEF');
    expect(verify(hook)?.dataId).toBe('2C938084ABCDEF');
  });

  it('leaves absent parts out of the signed template', () => {
    const ts = '1700000000';
    const v1 = createHmac('sha256', webhookSecret)
      .update(mercadoPagoManifest({ dataId: '42', requestId: null, ts }))
      .digest('hex');
    expect(mercadoPagoManifest({ dataId: '42', requestId: null, ts })).toBe('id:42;ts:1700000000;');
    const event = provider().verifyNotification({
      headers: { 'x-signature': `ts=${ts},v1=${v1}` },
      query: { 'data.id': '42', type: 'payment' },
      rawBody: JSON.stringify({ id: 7, type: 'payment', action: 'payment.created', data: { id: '42' } }),
    });
    expect(event?.dataId).toBe('42');
  });

  it('refuses a forged signature, another data.id in the query, a body naming another resource, and no signature', () => {
    const hook = fake.notification('payment', '555');
    expect(provider({ webhookSecret: 'otro' }).verifyNotification({ ...hook })).toBeNull();
    expect(verify({ ...hook, query: { ...hook.query, 'data.id': '556' } })).toBeNull();
    expect(verify({ ...hook, rawBody: hook.rawBody.replace('"555"', '"556"') })).toBeNull();
    expect(verify({ ...hook, headers: { ...hook.headers, 'x-request-id': 'otra' } })).toBeNull();
    const { 'x-signature': _dropped, ...unsigned } = hook.headers;
    expect(verify({ ...hook, headers: unsigned })).toBeNull();
    expect(verify({ ...hook, headers: { ...hook.headers, 'x-signature': 'ts=abc,v1=zz' } })).toBeNull();
  });
});

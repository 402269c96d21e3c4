import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { fakeControls } from './simulated-mercadopago-controls.ts';
import { isHostedPage, registerHostedPages } from './simulated-mercadopago-pages.ts';
import {
  createFakeState,
  fakeError as error,
  paymentBody as paymentBodyOf,
  preapprovalBody as preapprovalBodyOf,
  type FakeAuthorizedPayment,
  type FakePayment,
  type FakePreapproval,
  loadFakeState,
  saveFakeState,
} from './simulated-mercadopago-state.ts';
import type { SignedNotification } from './simulated-mercadopago-controls.ts';

export type SimulatedMercadoPagoOptions = {
  accessToken: string;
  webhookSecret: string;
  /** Where the payer's browser reaches the hosted pages (init_point, the voucher); set by listen in the tests. */
  url?: string;
  /** A JSON file that keeps the payments across restarts (the demo's, in DATA_DIR). */
  stateFile?: string;
  /** The demo's voucher page can pay or expire a voucher: its notification is delivered through this. */
  deliver?: (hook: SignedNotification) => Promise<void>;
};

/**
 * A local Mercado Pago as strict as its published API (mercadopago/sdk-nodejs: clients/preApproval,
 * payment, preference, invoice; utils/webhook; utils/errors), for the tests and for the demo's payments in pesos:
 * - every API call needs `Authorization: Bearer <access token>` (else 401 unauthorized); the hosted pages
 *   (init_points, the voucher, simulated-mercadopago-pages.ts) are opened by the payer's browser without one;
 * - POST /v1/payments needs X-Idempotency-Key; every POST or PUT with a key seen before answers the first
 *   result again, and the same key with another body is refused (409, as the SDK's MPIdempotencyError);
 * - preapprovals are created `pending` with init_point, become `authorized` only when the payer authorizes
 *   on the hosted page, `paused` / `cancelled` by PUT status; a cancelled one changes no more (400);
 * - payments: `oxxo` (ticket) and `clabe` (bank_transfer, SPEI) start `pending` with
 *   `date_of_expiration` and `transaction_details.external_resource_url` (and the CLABE in
 *   point_of_interaction), then approved / cancelled (expired) / refunded / charged_back / in_mediation, or
 *   refunded in part (still `approved`, `status_detail: partially_refunded`, `transaction_amount_refunded`);
 *   a preference's card payment is `approved` or `rejected` (cc_rejected_*);
 * - required fields and bad values refused with Mercado Pago's error shape { message, error, status, cause[] };
 * - notifications signed as Mercado Pago signs them: `x-signature: ts=…,v1=HMAC-SHA256(secret,
 *   "id:{data.id};request-id:{x-request-id};ts:{ts};")`, data.id in the URL's query.
 */
export function buildSimulatedMercadoPago(options: SimulatedMercadoPagoOptions) {
  const app = Fastify();
  const state = createFakeState();
  if (options.stateFile) loadFakeState(state, options.stateFile);
  state.url = options.url ?? '';
  const { preapprovals, payments, authorizedPayments, preferences, nextId } = state;
  const replies = new Map<string, { body: string; status: number; payload: string }>();
  const requests: { method: string; url: string; headers: Record<string, unknown>; body: unknown }[] = [];
  const faults: { match: string; status: number; times: number }[] = [];
  // the demo runs for days: what it answered to an idempotency key is kept for the last thousand writes only
  const remember = () => {
    if (requests.length > 1000) requests.splice(0, requests.length - 1000);
    while (replies.size > 1000) replies.delete(replies.keys().next().value!);
  };
  const { stateFile } = options;
  if (stateFile) {
    // the demo's payments outlive a restart, as Mercado Pago's do: a pending voucher can still be paid
    app.addHook('onResponse', async (request) => {
      if (request.method !== 'GET') saveFakeState(state, stateFile);
    });
  }

  const isUrl = (value: unknown) => typeof value === 'string' && /^https?:\/\/[^\s/]+/.test(value);
  const isEmail = (value: unknown) => typeof value === 'string' && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value);
  const isAmount = (value: unknown) =>
    typeof value === 'number' && value > 0 && Math.round(value * 100) === value * 100;

  app.addHook('preHandler', async (request, reply) => {
    requests.push({ method: request.method, url: request.url, headers: request.headers, body: request.body });
    // the payer's browser, not our server: no access token
    if (isHostedPage(request.url)) return;
    if (request.headers.authorization !== `Bearer ${options.accessToken}`)
      return error(reply, 401, 'unauthorized', 'invalid access token');
    const fault = faults.find((each) => each.times > 0 && `${request.method} ${request.url}`.startsWith(each.match));
    if (fault) {
      fault.times--;
      return error(reply, fault.status, 'internal_error', 'internal_error');
    }
    const key = request.headers['x-idempotency-key'];
    if (request.method === 'POST' && request.url === '/v1/payments' && typeof key !== 'string')
      return error(reply, 400, 'missing_idempotency_key', 'X-Idempotency-Key header is required');
    if (typeof key === 'string' && request.method !== 'GET') {
      const first = replies.get(`${request.method} ${request.url}|${key}`);
      if (first && first.body !== JSON.stringify(request.body))
        return error(reply, 409, 'idempotency_key_already_used', 'the idempotency key was used with another request');
      if (first) return reply.status(first.status).header('content-type', 'application/json').send(first.payload);
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    remember();
    const key = request.headers['x-idempotency-key'];
    if (typeof key === 'string' && request.method !== 'GET' && reply.statusCode < 300) {
      const id = `${request.method} ${request.url}|${key}`;
      if (!replies.has(id))
        replies.set(id, { body: JSON.stringify(request.body), status: reply.statusCode, payload: String(payload) });
    }
    return payload;
  });
  const preapprovalBody = (pre: FakePreapproval) => preapprovalBodyOf(state, pre);
  const paymentBody = (payment: FakePayment) => paymentBodyOf(state, payment);

  app.post('/preapproval', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const recurring = (body.auto_recurring ?? {}) as Record<string, unknown>;
    if (typeof body.reason !== 'string' || !body.reason) return error(reply, 400, '400', 'reason is required');
    if (!isEmail(body.payer_email)) return error(reply, 400, '400', 'payer_email must be a valid email');
    if (!isUrl(body.back_url)) return error(reply, 400, '400', 'back_url must be a valid url');
    if (!Number.isInteger(recurring.frequency) || Number(recurring.frequency) < 1)
      return error(reply, 400, '400', 'auto_recurring.frequency must be a positive integer');
    if (recurring.frequency_type !== 'days' && recurring.frequency_type !== 'months')
      return error(reply, 400, '400', 'auto_recurring.frequency_type must be days or months');
    if (!isAmount(recurring.transaction_amount))
      return error(reply, 400, '400', 'auto_recurring.transaction_amount must be a positive amount');
    if (recurring.currency_id !== 'MXN')
      return error(reply, 400, '400', 'auto_recurring.currency_id must be the currency of the site (MXN)');
    if (body.status !== undefined && body.status !== 'pending' && body.status !== 'authorized')
      return error(reply, 400, '400', 'status must be pending or authorized');
    // authorized at creation needs a card token from Mercado Pago's own script, which we never run
    if (body.status === 'authorized' && !body.card_token_id)
      return error(reply, 400, '400', 'card_token_id is required');
    const pre: FakePreapproval = {
      id: `2c938084${randomUUID().replaceAll('-', '').slice(0, 24)}`,
      status: 'pending',
      reason: body.reason,
      external_reference: String(body.external_reference ?? ''),
      payer_email: body.payer_email as string,
      back_url: body.back_url as string,
      auto_recurring: {
        frequency: Number(recurring.frequency),
        frequency_type: recurring.frequency_type,
        transaction_amount: Number(recurring.transaction_amount),
        currency_id: 'MXN',
      },
      next_payment_date: null,
      date_created: new Date().toISOString(),
    };
    preapprovals.set(pre.id, pre);
    return reply.status(201).send(preapprovalBody(pre));
  });

  app.get('/preapproval/:id', async (request, reply) => {
    const pre = preapprovals.get((request.params as { id: string }).id);
    if (!pre) return error(reply, 404, 'not_found', 'preapproval not found');
    return preapprovalBody(pre);
  });

  app.put('/preapproval/:id', async (request, reply) => {
    const pre = preapprovals.get((request.params as { id: string }).id);
    if (!pre) return error(reply, 404, 'not_found', 'preapproval not found');
    const status = ((request.body ?? {}) as { status?: unknown }).status;
    if (status !== 'paused' && status !== 'authorized' && status !== 'cancelled')
      return error(reply, 400, '400', 'status must be authorized, paused or cancelled');
    if (pre.status === 'cancelled' && status !== 'cancelled')
      return error(reply, 400, '400', 'You can not modify a cancelled preapproval');
    if (status === 'authorized' && pre.status !== 'paused')
      return error(reply, 400, '400', 'only a paused preapproval can be authorized again');
    pre.status = status;
    return preapprovalBody(pre);
  });

  /** An authorized payment as `GET /authorized_payments/{id}` answers it (sdk-nodejs src/clients/invoice/commonTypes.ts). */
  function chargeBody(charge: FakeAuthorizedPayment) {
    const payment = payments.get(charge.payment_id)!;
    return {
      id: Number(charge.id),
      preapproval_id: charge.preapproval_id,
      type: 'scheduled',
      status: charge.status,
      transaction_amount: charge.transaction_amount,
      currency_id: charge.currency_id,
      reason: preapprovals.get(charge.preapproval_id)?.reason,
      date_created: payment.date_created,
      debit_date: payment.date_created,
      retry_attempt: payment.status === 'rejected' ? 1 : 0,
      payment: { id: Number(payment.id), status: payment.status, status_detail: payment.status_detail },
    };
  }

  // sdk-nodejs src/clients/invoice/search: filters as query parameters, a page of results with its paging
  app.get('/authorized_payments/search', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const limit = Number(query.limit ?? 30);
    const offset = Number(query.offset ?? 0);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100 || !Number.isInteger(offset) || offset < 0)
      return error(reply, 400, 'bad_request', 'limit must be between 1 and 100');
    const matching = [...authorizedPayments.values()].filter(
      (charge) => !query.preapproval_id || charge.preapproval_id === query.preapproval_id,
    );
    return {
      paging: { offset, limit, total: matching.length },
      results: matching.slice(offset, offset + limit).map(chargeBody),
    };
  });

  app.get('/authorized_payments/:id', async (request, reply) => {
    const charge = authorizedPayments.get((request.params as { id: string }).id);
    if (!charge) return error(reply, 404, 'not_found', 'authorized payment not found');
    return chargeBody(charge);
  });

  app.post('/v1/payments', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const payer = (body.payer ?? {}) as Record<string, unknown>;
    if (!isAmount(body.transaction_amount))
      return error(reply, 400, '4037', 'transaction_amount must be a positive amount with two decimals');
    if (body.payment_method_id !== 'oxxo' && body.payment_method_id !== 'clabe')
      return error(reply, 400, '4018', 'payment_method_id is invalid');
    if (!isEmail(payer.email)) return error(reply, 400, '4050', 'payer.email must be a valid email');
    if (body.notification_url !== undefined && !isUrl(body.notification_url))
      return error(reply, 400, '4020', 'notification_url attribute must be url valid');
    // currency_id is the site's (MXN): a payment in another currency is refused
    if (body.currency_id !== undefined && body.currency_id !== 'MXN')
      return error(reply, 400, '4016', 'currency_id is invalid');
    const now = Date.now();
    const expiry =
      body.date_of_expiration === undefined ? now + 3 * 86_400_000 : Date.parse(String(body.date_of_expiration));
    if (!Number.isFinite(expiry) || expiry <= now || expiry > now + 30 * 86_400_000)
      return error(reply, 400, '4026', 'date_of_expiration must be between now and 30 days ahead');
    const payment: FakePayment = {
      id: nextId(),
      status: 'pending',
      status_detail: body.payment_method_id === 'oxxo' ? 'pending_waiting_payment' : 'pending_waiting_transfer',
      payment_method_id: body.payment_method_id,
      payment_type_id: body.payment_method_id === 'oxxo' ? 'ticket' : 'bank_transfer',
      transaction_amount: Number(body.transaction_amount),
      transaction_amount_refunded: 0,
      currency_id: 'MXN',
      description: String(body.description ?? ''),
      external_reference: typeof body.external_reference === 'string' ? body.external_reference : null,
      date_of_expiration: new Date(expiry).toISOString(),
      payer_email: payer.email as string,
      notification_url: typeof body.notification_url === 'string' ? body.notification_url : null,
      date_created: new Date().toISOString(),
    };
    payments.set(payment.id, payment);
    return reply.status(201).send(paymentBody(payment));
  });

  app.get('/v1/payments/:id', async (request, reply) => {
    const payment = payments.get((request.params as { id: string }).id);
    if (!payment) return error(reply, 404, '2000', 'Payment not found');
    return paymentBody(payment);
  });

  app.post('/checkout/preferences', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const items = Array.isArray(body.items) ? (body.items as Record<string, unknown>[]) : [];
    if (items.length === 0) return error(reply, 400, 'invalid_items', 'items needed');
    for (const item of items) {
      if (typeof item.title !== 'string' || !item.title) return error(reply, 400, 'invalid_title', 'title needed');
      if (!Number.isInteger(item.quantity) || Number(item.quantity) < 1)
        return error(reply, 400, 'invalid_quantity', 'quantity must be a positive integer');
      if (!isAmount(item.unit_price)) return error(reply, 400, 'invalid_unit_price', 'unit_price invalid');
      if (item.currency_id !== undefined && item.currency_id !== 'MXN')
        return error(reply, 400, 'invalid_currency_id', 'currency_id invalid');
    }
    const backUrls = (body.back_urls ?? {}) as Record<string, unknown>;
    // Mercado Pago refuses auto_return without back_urls.success
    if (body.auto_return !== undefined && !isUrl(backUrls.success))
      return error(reply, 400, 'invalid_back_urls', 'back_urls.success must be defined when auto_return is set');
    if (body.notification_url !== undefined && !isUrl(body.notification_url))
      return error(reply, 400, 'invalid_notification_url', 'notification_url must be a valid url');
    if (body.expiration_date_to !== undefined && Number.isNaN(Date.parse(String(body.expiration_date_to))))
      return error(reply, 400, 'invalid_expiration_date_to', 'expiration_date_to invalid');
    const id = `999-${randomUUID()}`;
    preferences.set(id, { id, body });
    return reply.status(201).send({
      id,
      items,
      external_reference: body.external_reference ?? '',
      back_urls: backUrls,
      auto_return: body.auto_return ?? '',
      collector_id: 999,
      init_point: `${state.url}/checkout/v1/redirect?pref_id=${id}`,
      sandbox_init_point: `${state.url}/checkout/v1/redirect?pref_id=${id}&sandbox=1`,
      date_created: new Date().toISOString(),
    });
  });
  const controls = fakeControls(state, options.webhookSecret);
  registerHostedPages(app, state, controls, options.deliver);
  return { app, state, requests, faults, controls };
}

/** The simulated Mercado Pago on a port of its own, for the tests (their notifications are delivered by hand). */
export async function startMercadoPagoFake(options: { accessToken: string; webhookSecret: string; port?: number }) {
  const { app, state, requests, faults, controls } = buildSimulatedMercadoPago(options);
  const { preapprovals, payments, preferences } = state;
  state.url = await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  return {
    url: state.url,
    requests,
    preapprovals,
    payments,
    preferences,
    /** Fails the next `times` calls starting with `match` ("POST /v1/payments") with `status`. */
    fail(match: string, status: number, times = 1) {
      faults.push({ match, status, times });
    },
    ...controls,
    close: () => app.close(),
  };
}

export type MercadoPagoFake = Awaited<ReturnType<typeof startMercadoPagoFake>>;

import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import {
  money,
  orderBody,
  preferred,
  subscriptionBody,
  type FakeOrder,
  type FakeSubscription,
  type FakeTransaction,
} from './paypal-fake-bodies.testing.ts';
import { paypalFakeWebhooks } from './paypal-fake-webhooks.testing.ts';

/**
 * A local PayPal as strict as PayPal's published behaviour (Subscriptions v1, Orders v2,
 * Webhooks v1), for tests:
 * - subscriptions go APPROVAL_PENDING → ACTIVE (on approval) → SUSPENDED / CANCELLED; suspend needs
 *   ACTIVE, activate needs SUSPENDED, cancel needs ACTIVE or SUSPENDED (else 422 SUBSCRIPTION_STATUS_INVALID);
 * - billing_info.last_failed_payment only with ?fields=last_failed_payment; failed_payments_count,
 *   next_billing_time; transactions COMPLETED, DECLINED, PENDING, REFUNDED, PARTIALLY_REFUNDED;
 * - orders CREATED/PAYER_ACTION_REQUIRED → APPROVED → COMPLETED, captured once and only after approval
 *   (422 ORDER_NOT_APPROVED, ORDER_ALREADY_CAPTURED), captures COMPLETED, PENDING or declined (422 INSTRUMENT_DECLINED);
 * - required fields and limits refused with PayPal's error shape { name, message, debug_id, details };
 * - POSTs create 201; PayPal-Request-Id answers a repeat with the first response; order creation and
 *   capture answer id, status and links only unless `Prefer: return=representation` is sent;
 * - refunds and reversals of captures arrive as PayPal sends them: a refund resource that names its
 *   capture only through the link rel "up"; OAuth tokens can be revoked mid-session;
 * - webhooks are signed over the raw bytes sent (CRC32 of the body, as PayPal does), and
 *   verify-webhook-signature checks the webhook_event bytes it is given against them.
 */
export async function startPayPalFake(options: {
  clientId: string;
  clientSecret: string;
  planIds: Record<string, 'monthly' | 'annual'>;
  webhookId: string;
}) {
  const app = Fastify();
  const subscriptions = new Map<string, FakeSubscription>();
  const orders = new Map<string, FakeOrder>();
  const replies = new Map<string, { status: number; body: unknown }>();
  const requests: { method: string; url: string; headers: Record<string, unknown>; body: unknown }[] = [];
  const faults: { match: string; status: number; times: number; afterHandling: boolean; delayMs: number }[] = [];
  let counter = 0;
  let token = `A21-${randomUUID()}`;
  const debugIds: string[] = [];
  const racedCaptures = new Set<string>();

  function error(reply: FastifyReply, status: number, name: string, issue?: string, field?: string) {
    const debugId = randomUUID().replaceAll('-', '').slice(0, 13);
    debugIds.push(debugId);
    const messages: Record<number, string> = {
      400: 'Request is not well-formed, syntactically incorrect, or violates schema.',
      401: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
      404: 'The specified resource does not exist.',
      422: 'The requested action could not be performed, semantically incorrect, or failed business validation.',
    };
    return reply
      .status(status)
      .header('paypal-debug-id', debugId)
      .send({
        name,
        message: messages[status] ?? 'An internal server error has occurred.',
        debug_id: debugId,
        details: issue
          ? [{ ...(field ? { field } : {}), issue, description: issue.toLowerCase().replaceAll('_', ' ') }]
          : [],
        links: [],
      });
  }

  const price = (planId: string) => (options.planIds[planId] === 'annual' ? '99.90' : '9.99');
  const { webhook, verify } = paypalFakeWebhooks({ webhookId: options.webhookId, error });

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, body, done) =>
    done(null, body),
  );
  // the raw JSON is kept: verify-webhook-signature checks the event's bytes
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    (request as FastifyRequest & { raw_: string }).raw_ = body as string;
    try {
      done(null, body === '' ? {} : JSON.parse(body as string));
    } catch {
      done(Object.assign(new Error('bad json'), { statusCode: 400 }), undefined);
    }
  });

  app.addHook('onRequest', async (request) => {
    const fault = faults.find(
      (each) => each.times > 0 && each.delayMs > 0 && `${request.method} ${request.url}`.startsWith(each.match),
    );
    if (fault) {
      fault.times--;
      await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    }
  });
  app.addHook('preHandler', async (request, reply) => {
    requests.push({ method: request.method, url: request.url, headers: request.headers, body: request.body });
    if (request.url !== '/v1/oauth2/token' && request.headers.authorization !== `Bearer ${token}`)
      return error(reply, 401, 'AUTHENTICATION_FAILURE');
    const fault = faults.find(
      (each) =>
        each.times > 0 &&
        !each.afterHandling &&
        !each.delayMs &&
        `${request.method} ${request.url}`.startsWith(each.match),
    );
    if (fault) {
      fault.times--;
      return error(reply, fault.status, fault.status === 429 ? 'RATE_LIMIT_REACHED' : 'INTERNAL_SERVER_ERROR');
    }
    const key = request.headers['paypal-request-id'];
    if (typeof key === 'string' && replies.has(`${request.url}|${key}`)) {
      const first = replies.get(`${request.url}|${key}`)!;
      return reply.status(first.status).send(first.body);
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.headers['paypal-request-id'];
    if (typeof key === 'string' && reply.statusCode < 300 && !replies.has(`${request.url}|${key}`)) {
      replies.set(`${request.url}|${key}`, { status: reply.statusCode, body: JSON.parse(String(payload || '{}')) });
    }
    // a response lost on the way back: PayPal did the work, the caller saw a 503
    const fault = faults.find(
      (each) => each.times > 0 && each.afterHandling && `${request.method} ${request.url}`.startsWith(each.match),
    );
    if (fault && reply.statusCode < 300) {
      fault.times--;
      reply.status(fault.status);
      return JSON.stringify({
        name: 'INTERNAL_SERVER_ERROR',
        message: 'An internal server error has occurred.',
        debug_id: 'lost-response',
        details: [],
      });
    }
    return payload;
  });

  app.post('/v1/oauth2/token', async (request, reply) => {
    const expected = `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`;
    if (request.headers.authorization !== expected || request.body !== 'grant_type=client_credentials') {
      return reply.status(401).send({ error: 'invalid_client', error_description: 'Client Authentication failed' });
    }
    return {
      scope: 'https://uri.paypal.com/services/subscriptions',
      access_token: token,
      token_type: 'Bearer',
      app_id: 'APP-FAKE',
      expires_in: 32400,
      nonce: randomUUID(),
    };
  });

  app.post('/v1/billing/subscriptions', async (request, reply) => {
    const body = request.body as {
      plan_id?: unknown;
      custom_id?: unknown;
      application_context?: { return_url?: unknown; cancel_url?: unknown };
    };
    if (typeof body.plan_id !== 'string')
      return error(reply, 400, 'INVALID_REQUEST', 'MISSING_REQUIRED_PARAMETER', '/plan_id');
    if (!options.planIds[body.plan_id])
      return error(reply, 422, 'UNPROCESSABLE_ENTITY', 'INVALID_RESOURCE_ID', '/plan_id');
    if (typeof body.custom_id === 'string' && body.custom_id.length > 127)
      return error(reply, 400, 'INVALID_REQUEST', 'INVALID_STRING_LENGTH', '/custom_id');
    const id = `I-FAKE${String(++counter).padStart(8, '0')}`;
    subscriptions.set(id, {
      id,
      status: 'APPROVAL_PENDING',
      plan_id: body.plan_id,
      custom_id: String(body.custom_id ?? ''),
      failed_payments_count: 0,
      next_billing_time: null,
      transactions: [],
    });
    return reply.status(201).send({
      id,
      status: 'APPROVAL_PENDING',
      create_time: new Date().toISOString(),
      links: [
        {
          rel: 'approve',
          href: `https://www.sandbox.paypal.com/webapps/billing/subscriptions?ba_token=BA-${id}`,
          method: 'GET',
        },
        { rel: 'self', href: `/v1/billing/subscriptions/${id}`, method: 'GET' },
      ],
    });
  });

  app.get('/v1/billing/subscriptions/:id', async (request, reply) => {
    const sub = subscriptions.get((request.params as { id: string }).id);
    if (!sub) return error(reply, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
    return subscriptionBody(sub, String((request.query as { fields?: string }).fields ?? ''));
  });

  app.get('/v1/billing/subscriptions/:id/transactions', async (request, reply) => {
    const query = request.query as { start_time?: string; end_time?: string };
    if (!query.start_time || !query.end_time)
      return error(reply, 400, 'INVALID_REQUEST', 'MISSING_REQUIRED_PARAMETER', 'start_time');
    const sub = subscriptions.get((request.params as { id: string }).id);
    if (!sub) return error(reply, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
    return {
      transactions: sub.transactions.map((tx) => ({
        id: tx.id,
        status: tx.status,
        time: tx.time,
        amount_with_breakdown: {
          gross_amount: money(tx.value, tx.currency),
          net_amount: money(tx.value, tx.currency),
        },
      })),
      total_items: sub.transactions.length,
      total_pages: 1,
    };
  });

  const transitions = {
    suspend: [['ACTIVE'], 'SUSPENDED'],
    activate: [['SUSPENDED'], 'ACTIVE'],
    cancel: [['ACTIVE', 'SUSPENDED'], 'CANCELLED'],
  } as const;
  for (const [action, [from, to]] of Object.entries(transitions)) {
    app.post(`/v1/billing/subscriptions/:id/${action}`, async (request, reply) => {
      const sub = subscriptions.get((request.params as { id: string }).id);
      if (!sub) return error(reply, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
      const reason = (request.body as { reason?: unknown } | undefined)?.reason;
      if (typeof reason !== 'string' || !reason)
        return error(reply, 400, 'INVALID_REQUEST', 'MISSING_REQUIRED_PARAMETER', '/reason');
      if (reason.length > 128) return error(reply, 400, 'INVALID_REQUEST', 'INVALID_STRING_LENGTH', '/reason');
      if (!(from as readonly string[]).includes(sub.status))
        return error(reply, 422, 'UNPROCESSABLE_ENTITY', 'SUBSCRIPTION_STATUS_INVALID');
      sub.status = to;
      return reply.status(204).send();
    });
  }

  app.post('/v2/checkout/orders', async (request, reply) => {
    const body = request.body as {
      intent?: unknown;
      purchase_units?: {
        amount?: { currency_code?: unknown; value?: unknown };
        description?: unknown;
        custom_id?: unknown;
      }[];
    };
    if (body.intent !== 'CAPTURE' && body.intent !== 'AUTHORIZE')
      return error(reply, 400, 'INVALID_REQUEST', 'MISSING_REQUIRED_PARAMETER', '/intent');
    const unit = body.purchase_units?.[0];
    if (!unit?.amount || typeof unit.amount.currency_code !== 'string' || typeof unit.amount.value !== 'string') {
      return error(
        reply,
        400,
        'INVALID_REQUEST',
        'MISSING_REQUIRED_PARAMETER',
        "/purchase_units/@reference_id=='default'/amount",
      );
    }
    if (!/^\d+(\.\d{2})?$/.test(unit.amount.value))
      return error(reply, 400, 'INVALID_REQUEST', 'INVALID_PARAMETER_SYNTAX', '/purchase_units/0/amount/value');
    if (typeof unit.description === 'string' && [...unit.description].length > 127) {
      return error(reply, 400, 'INVALID_REQUEST', 'INVALID_STRING_LENGTH', '/purchase_units/0/description');
    }
    if (typeof unit.custom_id === 'string' && unit.custom_id.length > 127)
      return error(reply, 400, 'INVALID_REQUEST', 'INVALID_STRING_LENGTH', '/purchase_units/0/custom_id');
    const id = `${String(++counter).padStart(17, '0')}F`;
    orders.set(id, {
      id,
      status: 'PAYER_ACTION_REQUIRED',
      purchase_units: [unit as Record<string, unknown>],
      captureOutcome: 'COMPLETED',
      capture: null,
    });
    return reply.status(201).send(preferred(request, orderBody(orders.get(id)!)));
  });

  app.get('/v2/checkout/orders/:id', async (request, reply) => {
    const order = orders.get((request.params as { id: string }).id);
    if (!order) return error(reply, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
    return orderBody(order);
  });

  app.post('/v2/checkout/orders/:id/capture', async (request, reply) => {
    const order = orders.get((request.params as { id: string }).id);
    if (!order) return error(reply, 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
    if (racedCaptures.delete(order.id) && order.status === 'APPROVED') {
      // another call (the browser's return, or our webhook job) captured it a moment earlier
      order.status = 'COMPLETED';
      order.capture = { id: `CAP-${++counter}`, status: order.captureOutcome };
    }
    if (order.status === 'COMPLETED') return error(reply, 422, 'UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_CAPTURED');
    if (order.status !== 'APPROVED') return error(reply, 422, 'UNPROCESSABLE_ENTITY', 'ORDER_NOT_APPROVED');
    if (order.captureOutcome === 'DECLINED') return error(reply, 422, 'UNPROCESSABLE_ENTITY', 'INSTRUMENT_DECLINED');
    order.status = 'COMPLETED';
    order.capture = { id: `CAP-${++counter}`, status: order.captureOutcome };
    return reply.status(201).send(preferred(request, orderBody(order)));
  });

  app.post('/v1/notifications/verify-webhook-signature', verify);

  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const now = () => new Date().toISOString();

  function charge(id: string, status: FakeTransaction['status']) {
    const sub = subscriptions.get(id)!;
    const previous = sub.transactions.at(-1) ? new Date(sub.transactions.at(-1)!.time).getTime() : 0;
    const transaction: FakeTransaction = {
      id: `SALE-${++counter}`,
      status,
      time: new Date(Math.max(Date.now(), previous + 1000)).toISOString(),
      value: price(sub.plan_id),
    };
    sub.transactions.push(transaction);
    if (status === 'COMPLETED') sub.failed_payments_count = 0;
    if (status === 'DECLINED') sub.failed_payments_count++;
    return transaction;
  }

  return {
    url,
    subscriptions,
    orders,
    requests,
    debugIds,
    /** The buyer approves and the first payment clears (or declines, or stays pending). */
    approve(
      id: string,
      payment: FakeTransaction['status'] = 'COMPLETED',
      nextBillingTime = new Date(Date.now() + 31 * 86_400_000).toISOString(),
    ) {
      const sub = subscriptions.get(id)!;
      sub.status = 'ACTIVE';
      sub.next_billing_time = nextBillingTime;
      return charge(id, payment);
    },
    /** A renewal charge. */
    charge,
    /** PayPal suspends a subscription whose failures reach the plan's threshold. */
    suspendForFailures(id: string, failures = 3) {
      const sub = subscriptions.get(id)!;
      for (let each = 0; each < failures; each++) charge(id, 'DECLINED');
      sub.status = 'SUSPENDED';
    },
    refund(saleId: string) {
      for (const sub of subscriptions.values()) {
        const tx = sub.transactions.find((each) => each.id === saleId);
        if (tx) tx.status = 'REFUNDED';
      }
    },
    /** The buyer approves an order; their funding completes, stays pending or is declined at capture. */
    approveOrder(id: string, captureOutcome: FakeOrder['captureOutcome'] = 'COMPLETED') {
      const order = orders.get(id)!;
      order.status = 'APPROVED';
      order.captureOutcome = captureOutcome;
    },
    /** The next capture of this order loses a race: PayPal captured it for a concurrent call just before. */
    raceCapture(id: string) {
      racedCaptures.add(id);
    },
    /** A pending capture settles later. */
    settleCapture(id: string, status: 'COMPLETED' | 'DECLINED' | 'REFUNDED') {
      orders.get(id)!.capture!.status = status;
    },
    /** The next `times` requests starting with `match` ("POST /v1/...") fail with `status`; afterHandling: the work is done, the answer lost. */
    fail(match: string, status: number, times = 1, afterHandling = false) {
      faults.push({ match, status, times, afterHandling, delayMs: 0 });
    },
    /** The next `times` requests starting with `match` answer after delayMs. */
    delay(match: string, delayMs: number, times = 1) {
      faults.push({ match, status: 200, times, afterHandling: false, delayMs });
    },
    /** PayPal revokes the token it issued (or it expires early): the next call with it gets 401. */
    revokeToken() {
      token = `A21-${randomUUID()}`;
    },
    clearFaults() {
      faults.length = 0;
    },
    /** A webhook as PayPal sends it: these exact bytes, signed over their CRC32. */
    webhook,
    /**
     * The merchant refunds a captured order (or the buyer's bank reverses it): the capture becomes
     * REFUNDED and PayPal sends PAYMENT.CAPTURE.REFUNDED (or .REVERSED) about a refund resource,
     * which names its capture only through the link rel "up" (Payments v2 refund).
     */
    refundCapture(orderId: string, reversed = false) {
      const order = orders.get(orderId)!;
      order.capture!.status = 'REFUNDED';
      const refundId = `REF-${++counter}`;
      const amount = (order.purchase_units[0] as { amount: unknown }).amount;
      return webhook(
        reversed ? 'PAYMENT.CAPTURE.REVERSED' : 'PAYMENT.CAPTURE.REFUNDED',
        {
          id: refundId,
          amount,
          status: 'COMPLETED',
          ...(reversed ? { note_to_payer: 'Payment reversed' } : {}),
          seller_payable_breakdown: { gross_amount: amount, net_amount: amount },
          create_time: now(),
          update_time: now(),
          links: [
            { href: `${url}/v2/payments/refunds/${refundId}`, rel: 'self', method: 'GET' },
            { href: `${url}/v2/payments/captures/${order.capture!.id}`, rel: 'up', method: 'GET' },
          ],
        },
        undefined,
        { resourceType: 'refund' },
      );
    },
    close: () => app.close(),
  };
}

export type PayPalFake = Awaited<ReturnType<typeof startPayPalFake>>;

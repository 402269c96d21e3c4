import { setTimeout as sleep } from 'node:timers/promises';
import type { Log } from '#server/services/log.ts';
import type { Plan } from '#shared/payments/payments.rules.ts';
import {
  ProviderError,
  centsToValue,
  transactionResult,
  valueToCents,
  webhookTarget,
  type PaymentProvider,
  type ProviderCaptureStatus,
  type ProviderOrder,
  type ProviderSubscription,
  type ProviderSubscriptionStatus,
  type ProviderTransaction,
} from './payment-provider.ts';

export type PayPalOptions = {
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  planIds: Record<Plan, string>;
  webhookId: string;
  brandName?: string;
  fetch?: typeof fetch;
  /** Each call gives up after this long (default 10 s): a slow PayPal never holds a member or a webhook. */
  timeoutMs?: number;
  /** Further attempts of an idempotent call after a 429, a 5xx, a timeout or a network error (default 2). */
  retries?: number;
  /** First backoff between attempts (default 300 ms), doubled each time; PayPal's Retry-After wins when longer (up to 5 s). */
  backoffMs?: number;
  log?: Pick<Log, 'warn'> & Partial<Pick<Log, 'error'>>;
};

type Json = Record<string, unknown>;

const subscriptionStatuses: readonly ProviderSubscriptionStatus[] = [
  'APPROVAL_PENDING',
  'APPROVED',
  'ACTIVE',
  'SUSPENDED',
  'CANCELLED',
  'EXPIRED',
];
const captureStatuses: readonly ProviderCaptureStatus[] = [
  'COMPLETED',
  'PENDING',
  'DECLINED',
  'FAILED',
  'REFUNDED',
  'PARTIALLY_REFUNDED',
];
const transmissionHeaders = [
  'paypal-auth-algo',
  'paypal-cert-url',
  'paypal-transmission-id',
  'paypal-transmission-sig',
  'paypal-transmission-time',
] as const;
/**
 * How old a delivery's PAYPAL-TRANSMISSION-TIME may be: PayPal resends a failed delivery up to 25 times
 * over 3 days (developer.paypal.com/api/rest/webhooks), so a genuine late retry is still inside 4 days.
 */
const transmissionWindowMs = 4 * 86_400_000;
/** PayPal's limit on purchase_units[].description. */
const descriptionLimit = 127;

type CallOptions = {
  body?: unknown;
  /** A body already serialised (the webhook event exactly as PayPal sent it). */
  rawBody?: string;
  /** PayPal-Request-Id: PayPal answers a repeat with the first result instead of acting twice. */
  requestId?: string;
  /** Safe to repeat: GETs, calls with a request id, signature checks. */
  idempotent?: boolean;
  allowNotFound?: boolean;
};

/** PayPal Subscriptions v1 + Orders v2 over its REST API; webhooks verified by verify-webhook-signature. */
export function createPayPalProvider(options: PayPalOptions): PaymentProvider {
  const doFetch = options.fetch ?? fetch;
  const base = options.apiUrl.replace(/\/$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const retries = options.retries ?? 2;
  const backoffMs = options.backoffMs ?? 300;
  const log: NonNullable<PayPalOptions['log']> = options.log ?? { warn() {} };
  let token: { value: string; expiresAt: number } | null = null;

  /** PayPal's error body (name, message, debug_id, details[].issue) as a ProviderError; logged without personal data. */
  async function failure(method: string, path: string, response: Response): Promise<ProviderError> {
    let body: Json = {};
    try {
      body = (await response.json()) as Json;
    } catch {
      // not JSON: the status says enough
    }
    const details = Array.isArray(body.details) ? (body.details as Json[]) : [];
    const info = {
      name: typeof body.name === 'string' ? body.name : typeof body.error === 'string' ? body.error : undefined,
      debugId:
        typeof body.debug_id === 'string' ? body.debug_id : (response.headers.get('paypal-debug-id') ?? undefined),
      // PayPal names what went wrong in details[].issue (name is only the class, e.g. UNPROCESSABLE_ENTITY)
      issue: details.map((detail) => detail.issue).find((issue): issue is string => typeof issue === 'string'),
    };
    // the path names PayPal ids only (no e-mail, no name): support traces the call by debug_id
    log.warn({ method, path: path.split('?')[0], status: response.status, ...info }, 'paypal call failed');
    return new ProviderError(
      `paypal ${method} ${path.split('?')[0]} ${response.status}${info.name ? ` ${info.name}` : ''}`,
      response.status,
      info,
    );
  }

  const retryable = (status: number) => status === 429 || status >= 500;

  /** One HTTP exchange with a deadline; repeats idempotent ones on 429, 5xx, timeouts and network errors. */
  async function exchange(
    method: string,
    path: string,
    init: () => Promise<RequestInit>,
    idempotent: boolean,
  ): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const last = !idempotent || attempt >= retries;
      let response: Response;
      try {
        response = await doFetch(`${base}${path}`, {
          ...(await init()),
          method,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        log.warn(
          { method, path: path.split('?')[0], attempt, reason: error instanceof Error ? error.name : 'error' },
          'paypal call did not answer',
        );
        if (last)
          throw new ProviderError(`paypal ${method} ${path.split('?')[0]} did not answer`, undefined, {
            name: error instanceof Error ? error.name : undefined,
          });
        await sleep(backoffMs * 2 ** attempt);
        continue;
      }
      if (!retryable(response.status) || last) return response;
      const retryAfter = Number(response.headers.get('retry-after'));
      await response.body?.cancel().catch(() => {});
      log.warn(
        {
          method,
          path: path.split('?')[0],
          status: response.status,
          attempt,
          debugId: response.headers.get('paypal-debug-id') ?? undefined,
        },
        'paypal call will be retried',
      );
      await sleep(
        Math.min(5_000, Math.max(backoffMs * 2 ** attempt, Number.isFinite(retryAfter) ? retryAfter * 1000 : 0)),
      );
    }
  }

  /** A token for the calls; asked for once per call, outside the call's own retries. */
  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now() + 60_000) return token.value;
    const path = '/v1/oauth2/token';
    const response = await exchange(
      'POST',
      path,
      async () => ({
        headers: {
          authorization: `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      }),
      true,
    );
    if (response.status === 401) {
      // our credentials, not PayPal: the operator must fix them; callers treat it as PayPal unavailable
      const refused = await failure('POST', path, response);
      (log.error ?? log.warn).call(
        log,
        { status: 401, debugId: refused.details.debugId },
        'PayPal rejected PAYPAL_CLIENT_ID / PAYPAL_CLIENT_SECRET (401 from /v1/oauth2/token): check both, and PAYPAL_API_URL (live or sandbox)',
      );
      throw new ProviderError('paypal credentials rejected (PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET)', undefined, {
        name: 'invalid_client',
        debugId: refused.details.debugId,
      });
    }
    if (!response.ok) throw await failure('POST', path, response);
    const body = (await response.json()) as { access_token: string; expires_in: number };
    token = { value: body.access_token, expiresAt: Date.now() + body.expires_in * 1000 };
    return token.value;
  }

  async function call<T = Json>(method: string, path: string, callOptions: CallOptions = {}): Promise<T | null> {
    const idempotent = callOptions.idempotent ?? (method === 'GET' || callOptions.requestId !== undefined);
    const payload =
      callOptions.rawBody ?? (callOptions.body === undefined ? undefined : JSON.stringify(callOptions.body));
    const send = async () => {
      const bearer = await accessToken();
      return exchange(
        method,
        path,
        async () => ({
          headers: {
            authorization: `Bearer ${bearer}`,
            'content-type': 'application/json',
            // PayPal answers id, status and links only unless asked for the whole record
            prefer: 'return=representation',
            ...(callOptions.requestId ? { 'paypal-request-id': callOptions.requestId } : {}),
          },
          body: payload,
        }),
        idempotent,
      );
    };
    let response = await send();
    if (response.status === 401) {
      // the cached token was revoked or expired early: one fresh token, one more try
      await response.body?.cancel().catch(() => {});
      token = null;
      response = await send();
    }
    if (callOptions.allowNotFound && response.status === 404) {
      await response.body?.cancel().catch(() => {});
      return null;
    }
    if (!response.ok) throw await failure(method, path, response);
    const text = await response.text();
    return (text ? JSON.parse(text) : {}) as T;
  }

  const planByPayPalId = (planId: unknown): Plan | null =>
    planId === options.planIds.monthly ? 'monthly' : planId === options.planIds.annual ? 'annual' : null;

  const approveLink = (links: unknown): string => {
    const list = Array.isArray(links) ? (links as { rel?: string; href?: string }[]) : [];
    const link = list.find((each) => each.rel === 'approve' || each.rel === 'payer-action');
    if (!link?.href) throw new ProviderError('paypal answered without an approval link');
    return link.href;
  };

  const moneyAt = (value: unknown) => {
    const record = (value ?? null) as { amount?: { value?: string; currency_code?: string }; time?: string } | null;
    if (!record?.time) return null;
    return {
      amountCents: valueToCents(record.amount?.value),
      currency: record.amount?.currency_code ?? '',
      time: new Date(record.time),
    };
  };

  function toOrder(body: Json): ProviderOrder {
    const unit = ((body.purchase_units as Json[] | undefined) ?? [])[0] ?? {};
    const captures = ((unit.payments as Json | undefined)?.captures as Json[] | undefined) ?? [];
    const capture = captures.at(-1);
    const captureStatus =
      capture && captureStatuses.includes(capture.status as ProviderCaptureStatus)
        ? (capture.status as ProviderCaptureStatus)
        : null;
    const status = String(body.status);
    const amount = (unit.amount ?? {}) as Json;
    return {
      id: String(body.id),
      status: status === 'COMPLETED' || status === 'APPROVED' || status === 'VOIDED' ? status : 'CREATED',
      amountCents: valueToCents(amount.value),
      currency: typeof amount.currency_code === 'string' ? amount.currency_code : '',
      customId: typeof unit.custom_id === 'string' ? unit.custom_id : null,
      captureId: capture ? String(capture.id) : null,
      captureStatus,
    };
  }

  const experience = (userAction: string, urls: { returnUrl: string; cancelUrl: string }) => ({
    brand_name: options.brandName ?? 'CxVet',
    locale: 'es-MX',
    shipping_preference: 'NO_SHIPPING',
    user_action: userAction,
    return_url: urls.returnUrl,
    cancel_url: urls.cancelUrl,
  });

  return {
    name: 'paypal',
    displayName: 'PayPal',

    async createSubscription({ plan, customId, returnUrl, cancelUrl, requestId }) {
      const body = await call<Json>('POST', '/v1/billing/subscriptions', {
        requestId,
        // Subscriptions v1 still takes application_context (Orders v2 moved it to payment_source)
        body: {
          plan_id: options.planIds[plan],
          custom_id: customId,
          application_context: experience('SUBSCRIBE_NOW', { returnUrl, cancelUrl }),
        },
      });
      return { id: String(body!.id), approvalUrl: approveLink(body!.links) };
    },

    async getSubscription(id) {
      // last_failed_payment is only returned when asked for
      const body = await call<Json>(
        'GET',
        `/v1/billing/subscriptions/${encodeURIComponent(id)}?fields=last_failed_payment`,
        { allowNotFound: true },
      );
      if (!body) return null;
      const status = String(body.status) as ProviderSubscriptionStatus;
      const billing = (body.billing_info ?? {}) as Json;
      const next = typeof billing.next_billing_time === 'string' ? new Date(billing.next_billing_time) : null;
      const subscription: ProviderSubscription = {
        id: String(body.id),
        status: subscriptionStatuses.includes(status) ? status : 'APPROVAL_PENDING',
        plan: planByPayPalId(body.plan_id),
        customId: typeof body.custom_id === 'string' ? body.custom_id : null,
        lastPayment: moneyAt(billing.last_payment),
        lastFailedPayment: moneyAt(billing.last_failed_payment),
        failedPaymentsCount: Number(billing.failed_payments_count ?? 0) || 0,
        nextBillingTime: next && !Number.isNaN(next.getTime()) ? next : null,
      };
      return subscription;
    },

    async listTransactions(id) {
      const end = new Date();
      const start = new Date(end.getTime() - 3 * 365 * 86_400_000);
      const query = `start_time=${start.toISOString()}&end_time=${end.toISOString()}`;
      const body = await call<{ transactions?: Json[] }>(
        'GET',
        `/v1/billing/subscriptions/${encodeURIComponent(id)}/transactions?${query}`,
      );
      return (body?.transactions ?? []).map((tx): ProviderTransaction => {
        const amounts = (tx.amount_with_breakdown ?? {}) as {
          gross_amount?: { value?: string; currency_code?: string };
        };
        return {
          id: String(tx.id),
          result: transactionResult(tx.status),
          amountCents: valueToCents(amounts.gross_amount?.value),
          currency: amounts.gross_amount?.currency_code ?? 'USD',
          time: new Date(String(tx.time)),
        };
      });
    },

    async suspendSubscription(id, reason) {
      await call('POST', `/v1/billing/subscriptions/${encodeURIComponent(id)}/suspend`, { body: { reason } });
    },
    async activateSubscription(id, reason) {
      await call('POST', `/v1/billing/subscriptions/${encodeURIComponent(id)}/activate`, { body: { reason } });
    },
    async cancelSubscription(id, reason) {
      await call('POST', `/v1/billing/subscriptions/${encodeURIComponent(id)}/cancel`, { body: { reason } });
    },

    async createOrder({ amountCents, description, customId, returnUrl, cancelUrl, requestId }) {
      const body = await call<Json>('POST', '/v2/checkout/orders', {
        requestId,
        body: {
          intent: 'CAPTURE',
          purchase_units: [
            {
              amount: { currency_code: 'USD', value: centsToValue(amountCents) },
              description: [...description].slice(0, descriptionLimit).join(''),
              custom_id: customId,
            },
          ],
          payment_source: { paypal: { experience_context: experience('PAY_NOW', { returnUrl, cancelUrl }) } },
        },
      });
      return { id: String(body!.id), approvalUrl: approveLink(body!.links) };
    },

    async getOrder(id) {
      const body = await call<Json>('GET', `/v2/checkout/orders/${encodeURIComponent(id)}`, { allowNotFound: true });
      return body ? toOrder(body) : null;
    },

    async captureOrder(id) {
      // one key per order: a retry after a timeout is answered with the first capture, never a second charge
      const body = await call<Json>('POST', `/v2/checkout/orders/${encodeURIComponent(id)}/capture`, {
        body: {},
        requestId: `capture-${id}`,
      });
      return toOrder(body!);
    },

    async verifyWebhook({ headers, rawBody }) {
      const values: Record<string, string> = {};
      for (const name of transmissionHeaders) {
        const value = headers[name];
        if (typeof value !== 'string' || !value) return null;
        values[name] = value;
      }
      let event: Json;
      try {
        event = JSON.parse(rawBody) as Json;
      } catch {
        return null;
      }
      if (typeof event.id !== 'string' || typeof event.event_type !== 'string') return null;
      // a delivery older than PayPal's whole retry period is a replay: refused without asking PayPal
      const sentAt = Date.parse(values['paypal-transmission-time']!);
      if (!Number.isFinite(sentAt) || Math.abs(Date.now() - sentAt) > transmissionWindowMs) return null;
      // PayPal signs the bytes it sent: the event goes back exactly as received, never re-serialised
      const fields = JSON.stringify({
        auth_algo: values['paypal-auth-algo'],
        cert_url: values['paypal-cert-url'],
        transmission_id: values['paypal-transmission-id'],
        transmission_sig: values['paypal-transmission-sig'],
        transmission_time: values['paypal-transmission-time'],
        webhook_id: options.webhookId,
      });
      const result = await call<{ verification_status?: string }>(
        'POST',
        '/v1/notifications/verify-webhook-signature',
        // never repeated: a forged delivery must not cost several calls; PayPal resends a genuine one itself
        { rawBody: `${fields.slice(0, -1)},"webhook_event":${rawBody}}`, idempotent: false },
      );
      if (result?.verification_status !== 'SUCCESS') return null;
      return { id: event.id, type: event.event_type, target: webhookTarget(event), payload: event };
    },
  };
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Log } from '#server/services/log.ts';
import { ProviderError } from './payment-provider.ts';
import {
  text,
  toAmount,
  toAuthorizedPayment,
  toPayment,
  toPreapproval,
  type AuthorizedPayment,
  type Json,
  type MercadoPagoPayment,
  type OfflineMethod,
  type Preapproval,
} from './mercadopago-records.ts';

export type MercadoPagoNotification = {
  /** Mercado Pago's notification id (the same on each retry of one notification). */
  id: string;
  /** payment, subscription_preapproval, subscription_authorized_payment… */
  type: string;
  action: string | null;
  /** The resource to read back: the id signed in the notification URL's query. */
  dataId: string;
  requestId: string | null;
  payload: unknown;
};

export type MercadoPagoOptions = {
  apiUrl: string;
  accessToken: string;
  webhookSecret: string;
  fetch?: typeof fetch;
  /** Each call gives up after this long (default 10 s). */
  timeoutMs?: number;
  /** Further attempts after a 429, a 5xx, a timeout or a network error (default 2); creates carry one idempotency key. */
  retries?: number;
  /** First backoff (default 300 ms), doubled each time; Retry-After wins when longer (up to 5 s). */
  backoffMs?: number;
  log?: Pick<Log, 'warn'> & Partial<Pick<Log, 'error'>>;
};

/** What Mercado Pago's Subscriptions, Payments and Checkout Pro APIs do for us: create, read, cancel, verify. */
export type MercadoPagoProvider = {
  createPreapproval(input: {
    reason: string;
    amountCents: number;
    frequencyMonths: number;
    payerEmail: string;
    externalReference: string;
    backUrl: string;
    idempotencyKey: string;
  }): Promise<Preapproval>;
  getPreapproval(id: string): Promise<Preapproval | null>;
  /** Pauses, resumes (authorized again) or cancels; the key makes a retry of one change answer the first result. */
  setPreapprovalStatus(
    id: string,
    status: 'paused' | 'authorized' | 'cancelled',
    idempotencyKey: string,
  ): Promise<Preapproval>;
  getAuthorizedPayment(id: string): Promise<AuthorizedPayment | null>;
  /** Every charge of a preapproval (`GET /authorized_payments/search`): what a lost notification would have said. */
  searchAuthorizedPayments(preapprovalId: string): Promise<AuthorizedPayment[]>;
  createOfflinePayment(input: {
    method: OfflineMethod;
    amountCents: number;
    description: string;
    payerEmail: string;
    externalReference: string;
    notificationUrl: string;
    expiresAt: Date;
    idempotencyKey: string;
  }): Promise<MercadoPagoPayment>;
  getPayment(id: string): Promise<MercadoPagoPayment | null>;
  /** Checkout Pro for a one-time card payment: the member pays on Mercado Pago's page (init_point). */
  createCardPreference(input: {
    title: string;
    amountCents: number;
    payerEmail: string;
    externalReference: string;
    backUrl: string;
    notificationUrl: string;
    /** When the page stops taking payments (sdk-nodejs clients/preference commonTypes: expires, expiration_date_to). */
    expiresAt: Date;
    idempotencyKey: string;
  }): Promise<{ id: string; initPoint: string }>;
  /** The notification when its x-signature is genuine, else null; no call to Mercado Pago. */
  verifyNotification(input: {
    headers: Record<string, string | string[] | undefined>;
    query: Record<string, unknown>;
    rawBody: string;
  }): MercadoPagoNotification | null;
};

const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.trim() ? first.trim() : null;
};

/** x-signature as Mercado Pago signs it: HMAC-SHA256 of `id:{data.id};request-id:{x-request-id};ts:{ts};`, absent parts left out. */
export function mercadoPagoManifest(input: { dataId: string | null; requestId: string | null; ts: string }) {
  const parts: string[] = [];
  if (input.dataId) parts.push(`id:${input.dataId}`);
  if (input.requestId) parts.push(`request-id:${input.requestId}`);
  parts.push(`ts:${input.ts}`);
  return `${parts.join(';')};`;
}

/** Mercado Pago lower-cases an alphanumeric data.id before signing it. */
const signedDataId = (dataId: string) => (/^[a-z0-9]+$/i.test(dataId) ? dataId.toLowerCase() : dataId);

/** Mercado Pago over its REST API with fetch: timeouts, bounded retries, X-Idempotency-Key on every write. */
export function createMercadoPagoProvider(options: MercadoPagoOptions): MercadoPagoProvider {
  const doFetch = options.fetch ?? fetch;
  const base = options.apiUrl.replace(/\/$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const retries = options.retries ?? 2;
  const backoffMs = options.backoffMs ?? 300;
  const log: NonNullable<MercadoPagoOptions['log']> = options.log ?? { warn() {} };

  /** Mercado Pago's error body ({ message, error, status, cause[] }) as a ProviderError, logged without personal data. */
  async function failure(method: string, path: string, response: Response): Promise<ProviderError> {
    let body: Json = {};
    try {
      body = (await response.json()) as Json;
    } catch {
      // not JSON: the status says enough
    }
    const causes = Array.isArray(body.cause) ? (body.cause as Json[]) : [];
    const info = {
      name: typeof body.error === 'string' ? body.error : undefined,
      debugId: response.headers.get('x-request-id') ?? undefined,
      issue: causes.map((cause) => text(cause.code)).find((code): code is string => code !== null),
    };
    log.warn({ method, path: path.split('?')[0], status: response.status, ...info }, 'mercadopago call failed');
    if (response.status === 401) {
      (log.error ?? log.warn).call(
        log,
        { status: 401 },
        'Mercado Pago rejected MERCADOPAGO_ACCESS_TOKEN (401): check it, and that it belongs to the account of MERCADOPAGO_API_URL',
      );
    }
    return new ProviderError(
      `mercadopago ${method} ${path.split('?')[0]} ${response.status}${info.name ? ` ${info.name}` : ''}`,
      response.status,
      info,
    );
  }

  async function call(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: unknown,
    idempotencyKey?: string,
  ): Promise<Json | null> {
    const clean = path.split('?')[0];
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= retries;
      let response: Response;
      try {
        response = await doFetch(`${base}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${options.accessToken}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            // the same key on each attempt: Mercado Pago answers a repeat with the first result
            ...(idempotencyKey ? { 'x-idempotency-key': idempotencyKey } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const reason = error instanceof Error ? error.name : 'error';
        log.warn({ method, path: clean, attempt, reason }, 'mercadopago call did not answer');
        if (last) throw new ProviderError(`mercadopago ${method} ${clean} did not answer`, undefined, { name: reason });
        await sleep(backoffMs * 2 ** attempt);
        continue;
      }
      if (method === 'GET' && response.status === 404) {
        await response.body?.cancel().catch(() => {});
        return null;
      }
      if ((response.status === 429 || response.status >= 500) && !last) {
        const retryAfter = Number(response.headers.get('retry-after'));
        await response.body?.cancel().catch(() => {});
        log.warn({ method, path: clean, status: response.status, attempt }, 'mercadopago call will be retried');
        await sleep(
          Math.min(5_000, Math.max(backoffMs * 2 ** attempt, Number.isFinite(retryAfter) ? retryAfter * 1000 : 0)),
        );
        continue;
      }
      if (!response.ok) throw await failure(method, path, response);
      return (await response.json()) as Json;
    }
  }

  return {
    async createPreapproval(input) {
      const body = await call(
        'POST',
        '/preapproval',
        {
          reason: input.reason,
          external_reference: input.externalReference,
          payer_email: input.payerEmail,
          back_url: input.backUrl,
          auto_recurring: {
            frequency: input.frequencyMonths,
            frequency_type: 'months',
            transaction_amount: toAmount(input.amountCents),
            currency_id: 'MXN',
          },
          // pending: the member authorizes the card on Mercado Pago's page (init_point), never on ours
          status: 'pending',
        },
        input.idempotencyKey,
      );
      const preapproval = toPreapproval(body!);
      if (!preapproval.initPoint) throw new ProviderError('mercadopago answered a preapproval without init_point');
      return preapproval;
    },

    async getPreapproval(id) {
      const body = await call('GET', `/preapproval/${encodeURIComponent(id)}`);
      return body ? toPreapproval(body) : null;
    },

    async setPreapprovalStatus(id, status, idempotencyKey) {
      const body = await call('PUT', `/preapproval/${encodeURIComponent(id)}`, { status }, idempotencyKey);
      return toPreapproval(body!);
    },

    async getAuthorizedPayment(id) {
      const body = await call('GET', `/authorized_payments/${encodeURIComponent(id)}`);
      return body ? toAuthorizedPayment(body) : null;
    },

    async searchAuthorizedPayments(preapprovalId) {
      const query = new URLSearchParams({ preapproval_id: preapprovalId, limit: '100' });
      const body = await call('GET', `/authorized_payments/search?${query.toString()}`);
      const results = Array.isArray(body?.results) ? (body.results as Json[]) : [];
      return results.map(toAuthorizedPayment);
    },

    async createOfflinePayment(input) {
      const body = await call(
        'POST',
        '/v1/payments',
        {
          transaction_amount: toAmount(input.amountCents),
          description: input.description,
          payment_method_id: input.method,
          payer: { email: input.payerEmail },
          external_reference: input.externalReference,
          notification_url: input.notificationUrl,
          date_of_expiration: input.expiresAt.toISOString(),
        },
        input.idempotencyKey,
      );
      return toPayment(body!);
    },

    async getPayment(id) {
      const body = await call('GET', `/v1/payments/${encodeURIComponent(id)}`);
      return body ? toPayment(body) : null;
    },

    async createCardPreference(input) {
      const body = await call(
        'POST',
        '/checkout/preferences',
        {
          items: [
            {
              id: input.externalReference,
              title: input.title,
              quantity: 1,
              unit_price: toAmount(input.amountCents),
              currency_id: 'MXN',
            },
          ],
          payer: { email: input.payerEmail },
          external_reference: input.externalReference,
          back_urls: { success: input.backUrl, pending: input.backUrl, failure: input.backUrl },
          auto_return: 'approved',
          notification_url: input.notificationUrl,
          expires: true,
          expiration_date_to: input.expiresAt.toISOString(),
          // cards only on this page: OXXO and SPEI go through our own page and the Payments API
          payment_methods: {
            excluded_payment_types: [{ id: 'ticket' }, { id: 'bank_transfer' }, { id: 'atm' }],
            installments: 1,
          },
        },
        input.idempotencyKey,
      );
      const initPoint = text(body!.init_point);
      if (!initPoint) throw new ProviderError('mercadopago answered a preference without init_point');
      return { id: String(body!.id), initPoint };
    },

    verifyNotification({ headers, query, rawBody }) {
      const signature = header(headers, 'x-signature');
      if (!signature) return null;
      const parts = Object.fromEntries(
        signature.split(',').map((part) => {
          const [key, ...value] = part.split('=');
          return [key!.trim(), value.join('=').trim()];
        }),
      );
      const ts = parts.ts;
      const v1 = parts.v1;
      if (!ts || !/^\d+$/.test(ts) || !v1 || !/^[0-9a-f]{64}$/i.test(v1)) return null;
      const queryId = text(query['data.id']);
      const requestId = header(headers, 'x-request-id');
      const expected = createHmac('sha256', options.webhookSecret)
        .update(mercadoPagoManifest({ dataId: queryId ? signedDataId(queryId) : null, requestId, ts }))
        .digest();
      if (!timingSafeEqual(expected, Buffer.from(v1, 'hex'))) return null;
      let body: Json;
      try {
        body = JSON.parse(rawBody) as Json;
      } catch {
        return null;
      }
      const bodyId = text((body.data as Json | undefined)?.id);
      const type = text(body.type) ?? text(query.type);
      // the signature covers only the query's data.id: a body naming another resource is not ours to trust
      if (!queryId || !type || (bodyId && bodyId !== queryId)) return null;
      return {
        id: text(body.id) ?? requestId ?? `${type}:${queryId}:${ts}`,
        type,
        action: text(body.action),
        dataId: queryId,
        requestId,
        payload: body,
      };
    },
  };
}

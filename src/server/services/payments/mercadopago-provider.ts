import { createHmac, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Log } from '#server/services/log.ts';
import { ProviderError } from './payment-provider.ts';

/** Preapproval statuses (Subscriptions API, `/preapproval`). */
const preapprovalStatuses = ['pending', 'authorized', 'paused', 'cancelled'] as const;
type PreapprovalStatus = (typeof preapprovalStatuses)[number];

/** Payment statuses (Payments API, `/v1/payments`); only `approved` means the money arrived. */
const mercadoPagoPaymentStatuses = [
  'pending',
  'approved',
  'authorized',
  'in_process',
  'in_mediation',
  'rejected',
  'cancelled',
  'refunded',
  'charged_back',
] as const;
export type MercadoPagoPaymentStatus = (typeof mercadoPagoPaymentStatuses)[number];

/** The one-time methods paid outside a card: cash at OXXO (a voucher) and a SPEI transfer to a CLABE. */
export type OfflineMethod = 'oxxo' | 'clabe';

type Preapproval = {
  id: string;
  status: PreapprovalStatus;
  /** Our reference (the account and intent), as sent at creation. */
  externalReference: string | null;
  amountCents: number;
  currency: string;
  frequency: { count: number; unit: 'days' | 'months' };
  /** Mercado Pago's hosted page where the member authorizes the card. */
  initPoint: string | null;
  /** When Mercado Pago will charge next, as it reports it. */
  nextPaymentDate: Date | null;
};

/** One recurring charge of a preapproval (`/authorized_payments/{id}`) and the payment it made, if any. */
type AuthorizedPayment = {
  id: string;
  preapprovalId: string;
  status: string;
  amountCents: number;
  currency: string;
  payment: { id: string; status: MercadoPagoPaymentStatus; statusDetail: string } | null;
};

export type MercadoPagoPayment = {
  id: string;
  status: MercadoPagoPaymentStatus;
  statusDetail: string;
  methodId: string;
  amountCents: number;
  refundedCents: number;
  currency: string;
  externalReference: string | null;
  /** Until when an OXXO voucher or a CLABE can be paid. */
  expiresAt: Date | null;
  /** The voucher (OXXO) or the transfer instructions (SPEI), on Mercado Pago's site. */
  instructionsUrl: string | null;
  /** The CLABE to transfer to (SPEI), when Mercado Pago gives it as text. */
  clabe: string | null;
};

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
    idempotencyKey: string;
  }): Promise<{ id: string; initPoint: string }>;
  /** The notification when its x-signature is genuine, else null; no call to Mercado Pago. */
  verifyNotification(input: {
    headers: Record<string, string | string[] | undefined>;
    query: Record<string, unknown>;
    rawBody: string;
  }): MercadoPagoNotification | null;
};

type Json = Record<string, unknown>;

const text = (value: unknown): string | null =>
  typeof value === 'string' && value ? value : typeof value === 'number' ? String(value) : null;
const toCents = (value: unknown) => Math.round(Number(value ?? 0) * 100);
const toAmount = (cents: number) => Math.round(cents) / 100;
const toDate = (value: unknown) => {
  const date = typeof value === 'string' ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
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

  function toPreapproval(body: Json): Preapproval {
    const recurring = (body.auto_recurring ?? {}) as Json;
    const status = String(body.status) as PreapprovalStatus;
    return {
      id: String(body.id),
      status: preapprovalStatuses.includes(status) ? status : 'pending',
      externalReference: text(body.external_reference),
      amountCents: toCents(recurring.transaction_amount),
      currency: text(recurring.currency_id) ?? '',
      frequency: {
        count: Number(recurring.frequency ?? 0) || 0,
        unit: recurring.frequency_type === 'days' ? 'days' : 'months',
      },
      initPoint: text(body.init_point),
      nextPaymentDate: toDate(body.next_payment_date),
    };
  }

  function toPayment(body: Json): MercadoPagoPayment {
    const status = String(body.status) as MercadoPagoPaymentStatus;
    const details = (body.transaction_details ?? {}) as Json;
    const transaction = ((body.point_of_interaction as Json | undefined)?.transaction_data ?? {}) as Json;
    const collector = ((transaction.bank_info as Json | undefined)?.collector ?? {}) as Json;
    // an 18-digit CLABE is only trusted as text: as a JSON number it would have lost digits
    const clabe =
      typeof collector.account_id === 'string' && /^\d{18}$/.test(collector.account_id) ? collector.account_id : null;
    return {
      id: String(body.id),
      // an unknown status grants nothing
      status: mercadoPagoPaymentStatuses.includes(status) ? status : 'pending',
      statusDetail: text(body.status_detail) ?? '',
      methodId: text(body.payment_method_id) ?? '',
      amountCents: toCents(body.transaction_amount),
      refundedCents: toCents(body.transaction_amount_refunded),
      currency: text(body.currency_id) ?? '',
      externalReference: text(body.external_reference),
      expiresAt: toDate(body.date_of_expiration),
      instructionsUrl: text(details.external_resource_url) ?? text(transaction.ticket_url),
      clabe,
    };
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
      if (!body) return null;
      const payment = (body.payment ?? null) as Json | null;
      const paymentStatus = String(payment?.status) as MercadoPagoPaymentStatus;
      return {
        id: String(body.id),
        preapprovalId: text(body.preapproval_id) ?? '',
        status: text(body.status) ?? '',
        amountCents: toCents(body.transaction_amount),
        currency: text(body.currency_id) ?? '',
        payment:
          payment && text(payment.id)
            ? {
                id: text(payment.id)!,
                status: mercadoPagoPaymentStatuses.includes(paymentStatus) ? paymentStatus : 'pending',
                statusDetail: text(payment.status_detail) ?? '',
              }
            : null,
      };
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

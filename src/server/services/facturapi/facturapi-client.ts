import { setTimeout as sleep } from 'node:timers/promises';
import type { Log } from '#server/services/log.ts';

/**
 * Facturapi's v2 REST API as its official Node SDK calls it (FacturAPI/facturapi-node: src/resources/receipts.ts,
 * src/resources/invoices.ts, src/wrapper.ts, src/types/receipt.ts, src/types/invoice.ts, src/enums.ts):
 * `Authorization: Bearer <key>`, JSON bodies, query parameters for a cancellation's motive, and errors answered
 * as `{ message, status?, code?, path? }` (the SDK's FacturapiError). Over fetch rather than the SDK because the
 * SDK's base URL is a constant, and our tests talk to a strict local fake.
 */

export type FacturapiReceipt = {
  id: string;
  key: string;
  status: 'open' | 'canceled' | 'invoiced_to_customer' | 'invoiced_globally';
  self_invoice_url: string;
  payment_form: string;
  total: number;
  invoice: string | null;
  external_id?: string;
  livemode: boolean;
};

export type FacturapiInvoice = {
  id: string;
  uuid: string;
  status: 'draft' | 'pending' | 'valid' | 'canceled' | 'failed';
  cancellation_status: 'none' | 'accepted' | 'pending' | 'verifying' | 'rejected' | 'expired';
  /** The receiver as stamped (the SDK's CustomerInfo): a nota de crédito goes to the same one. */
  customer: { legal_name: string; tax_id: string; tax_system?: string; address?: { zip: string } };
  total: number;
  use: string;
  payment_form: string;
  /** ISO 4217; with `exchange`, the pesos of one unit (1 for MXN), as CFDI 4.0's Moneda and TipoCambio. */
  currency: string;
  exchange: number;
  livemode: boolean;
};

export type FacturapiCustomer = {
  legal_name: string;
  tax_id: string;
  tax_system: string;
  email?: string;
  address: { zip: string };
};

/** An answer of Facturapi that refuses the request (4xx): retrying it changes nothing. */
export class FacturapiRefusal extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly path: string | null,
  ) {
    super(message);
    this.name = 'FacturapiRefusal';
  }
}

/** An RFC as the SAT writes it: three letters (a company) or four (a person), a date, and its homoclave. */
const quotedRfc = /(?<![A-Z\dÑ&])[A-ZÑ&]{3,4}\d{6}[A-Z\d]{3}(?![A-Z\d])/giu;

/**
 * A Facturapi error as the log may hold it: the SAT's reasons can quote the receiver's RFC, and a person's RFC is
 * their initials and date of birth, so it is replaced (the log holds no e-mail address either).
 */
export function reasonForLog(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(quotedRfc, '<RFC>');
}

/** Facturapi could not be reached, or failed (5xx, 429, a timeout): the job retries later. */
export class FacturapiUnavailable extends Error {}

export type FacturapiOptions = {
  apiUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  retries?: number;
  backoffMs?: number;
  log?: Pick<Log, 'warn'>;
};

export function createFacturapiClient(options: FacturapiOptions) {
  const doFetch = options.fetch ?? fetch;
  const base = options.apiUrl.replace(/\/$/, '');
  const timeoutMs = options.timeoutMs ?? 15_000;
  const retries = options.retries ?? 2;
  const backoffMs = options.backoffMs ?? 300;

  async function call(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    input: { body?: object; query?: Record<string, string>; binary?: boolean } = {},
  ): Promise<unknown> {
    const url = `${base}${path}${input.query ? `?${new URLSearchParams(input.query)}` : ''}`;
    let lastError: unknown = null;
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await sleep(backoffMs * 2 ** (attempt - 1));
      let response: Response;
      try {
        response = await doFetch(url, {
          method,
          headers: {
            authorization: `Bearer ${options.apiKey}`,
            ...(input.body ? { 'content-type': 'application/json' } : {}),
          },
          body: input.body ? JSON.stringify(input.body) : undefined,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        lastError = error;
        continue;
      }
      if (response.status === 429 || response.status >= 500) {
        lastError = new Error(`facturapi answered ${response.status}`);
        await response.body?.cancel();
        continue;
      }
      if (!response.ok) {
        const text = await response.text();
        let body: { message?: unknown; path?: unknown } = {};
        try {
          body = JSON.parse(text) as typeof body;
        } catch {
          // not JSON: the text is the message, as the SDK does
        }
        throw new FacturapiRefusal(
          typeof body.message === 'string' ? body.message : text || response.statusText,
          response.status,
          typeof body.path === 'string' ? body.path : null,
        );
      }
      if (input.binary) return Buffer.from(await response.arrayBuffer());
      return response.json();
    }
    options.log?.warn({ path, reason: reasonForLog(lastError) }, 'facturapi unavailable');
    throw new FacturapiUnavailable(lastError instanceof Error ? lastError.message : String(lastError));
  }

  /** The one line every document of ours has: the sale's description and product key, its total with taxes in. */
  const oneItem = (input: { description: string; productKey: string; totalCents: number }) => [
    {
      quantity: 1,
      product: {
        description: input.description,
        product_key: input.productKey,
        price: input.totalCents / 100,
        tax_included: true,
      },
    },
  ];

  return {
    /**
     * POST /receipts: `idempotency_key` makes a retry answer the receipt already created. A receipt that replaces
     * another (`replacing`: what tells it apart, the refunded total) has a key of its own.
     */
    createReceipt(input: {
      paymentForm: string;
      description: string;
      totalCents: number;
      externalId: string;
      productKey: string;
      replacing?: string;
    }): Promise<FacturapiReceipt> {
      return call('POST', '/receipts', {
        body: {
          payment_form: input.paymentForm,
          external_id: input.externalId,
          idempotency_key: `receipt-${input.externalId}${input.replacing ? `-${input.replacing}` : ''}`,
          items: oneItem(input),
        },
      }) as Promise<FacturapiReceipt>;
    },
    /** POST /receipts/{id}/invoice: a receipt is invoiced once, to this customer. */
    invoiceReceipt(receiptId: string, input: { customer: FacturapiCustomer; use: string }): Promise<FacturapiInvoice> {
      return call('POST', `/receipts/${encodeURIComponent(receiptId)}/invoice`, {
        body: { customer: input.customer, use: input.use },
      }) as Promise<FacturapiInvoice>;
    },
    /** POST /receipts/global-invoice: every open receipt of the period to 'público en general'. */
    createGlobalInvoice(input: { from: Date; to: Date }): Promise<FacturapiInvoice> {
      return call('POST', '/receipts/global-invoice', {
        body: { periodicity: 'month', from: input.from.toISOString(), to: input.to.toISOString() },
      }) as Promise<FacturapiInvoice>;
    },
    /**
     * POST /invoices: a factura not from a receipt (a payment in dollars the Admin invoices by hand), in its
     * currency with the exchange rate CFDI 4.0 requires; `idempotency_key` makes a retry answer the same invoice.
     */
    createInvoice(input: {
      customer: FacturapiCustomer;
      use: string;
      paymentForm: string;
      description: string;
      totalCents: number;
      currency: string;
      exchange: number;
      productKey: string;
      idempotencyKey: string;
    }): Promise<FacturapiInvoice> {
      return call('POST', '/invoices', {
        body: {
          customer: input.customer,
          use: input.use,
          payment_form: input.paymentForm,
          currency: input.currency,
          exchange: input.exchange,
          idempotency_key: input.idempotencyKey,
          items: oneItem(input),
        },
      }) as Promise<FacturapiInvoice>;
    },
    /**
     * POST /invoices with `type: 'E'`: a CFDI de egreso (nota de crédito) for part of an invoice's amount, related
     * to that invoice's UUID with c_TipoRelacion 01 (the SDK's InvoiceType.EGRESO and InvoiceRelation.NOTA_DE_CREDITO);
     * uso G02 «Devoluciones, descuentos o bonificaciones», paid in one go (PUE) by the payment's forma de pago.
     */
    createCreditNote(input: {
      customer: FacturapiCustomer;
      relatedUuid: string;
      paymentForm: string;
      description: string;
      totalCents: number;
      productKey: string;
      idempotencyKey: string;
    }): Promise<FacturapiInvoice> {
      return call('POST', '/invoices', {
        body: {
          type: 'E',
          customer: input.customer,
          use: 'G02',
          payment_form: input.paymentForm,
          payment_method: 'PUE',
          related_documents: [{ relationship: '01', documents: [input.relatedUuid] }],
          idempotency_key: input.idempotencyKey,
          items: oneItem(input),
        },
      }) as Promise<FacturapiInvoice>;
    },
    /** GET /invoices/{id}: its status and cancellation_status as Facturapi knows them now. */
    getInvoice(id: string): Promise<FacturapiInvoice> {
      return call('GET', `/invoices/${encodeURIComponent(id)}`) as Promise<FacturapiInvoice>;
    },
    getReceipt(id: string): Promise<FacturapiReceipt> {
      return call('GET', `/receipts/${encodeURIComponent(id)}`) as Promise<FacturapiReceipt>;
    },
    /** DELETE /receipts/{id}: an open receipt is cancelled, no longer invoiced by anyone (the SDK's receipts.cancel). */
    cancelReceipt(id: string): Promise<FacturapiReceipt> {
      return call('DELETE', `/receipts/${encodeURIComponent(id)}`) as Promise<FacturapiReceipt>;
    },
    /** DELETE /invoices/{id}?motive=: the SAT's motive 01–04. */
    cancelInvoice(id: string, motive: string): Promise<FacturapiInvoice> {
      return call('DELETE', `/invoices/${encodeURIComponent(id)}`, { query: { motive } }) as Promise<FacturapiInvoice>;
    },
    download(id: string, format: 'pdf' | 'xml'): Promise<Buffer> {
      return call('GET', `/invoices/${encodeURIComponent(id)}/${format}`, { binary: true }) as Promise<Buffer>;
    },
  };
}

export type FacturapiClient = ReturnType<typeof createFacturapiClient>;

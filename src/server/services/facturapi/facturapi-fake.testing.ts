import { randomBytes, randomUUID } from 'node:crypto';
import Fastify, { type FastifyReply } from 'fastify';
import type { FacturapiInvoice, FacturapiReceipt } from './facturapi-client.ts';

/**
 * A local Facturapi as strict as its published API (FacturAPI/facturapi-node: src/resources/receipts.ts,
 * invoices.ts, wrapper.ts's FacturapiError, types/receipt.ts, types/invoice.ts, enums.ts), for tests:
 * - every call needs `Authorization: Bearer <key>` (else 401);
 * - errors answer `{ message, path?, status }` as JSON (the SDK reads message, path, status);
 * - receipts need a c_FormaPago payment_form and items; `idempotency_key` answers the first receipt again;
 * - a receipt is invoiced once: to a customer (`open` → `invoiced_to_customer`) or in a global invoice
 *   (`open` → `invoiced_globally`); a second time is refused (400); only an open one is cancelled (DELETE,
 *   `open` → `canceled`, receipts.ts's `cancel`), and a cancelled one is invoiced by nobody;
 * - a customer's RFC must match persona física (13) or moral (12), its régimen must fit that kind, the uso
 *   must fit the régimen (its own copy of the SAT's c_RegimenFiscal and c_UsoCFDI, independent of ours), zip 5 digits;
 * - an invoice not from a receipt (POST /invoices) in MXN or another c_Moneda currency, which needs its
 *   `exchange` (TipoCambio: positive, at most six decimals; 1 or absent for MXN), as CFDI 4.0's Anexo 20 requires;
 *   its `idempotency_key` answers the first invoice again;
 * - a CFDI de egreso (`type: 'E'`, a nota de crédito) needs `related_documents` (c_TipoRelacion 01–07, each with
 *   `documents`: UUIDs); with 01 each must be a valid invoice of ours to the same receiver, and the notes related to
 *   one may not add up to more than its total; uso G02; `type` other than I or E is refused;
 * - cancellation only with motive 01–04 (01 needs `substitution`), once, and not while a valid egreso relates to the
 *   invoice (the SAT cancels the related CFDI first); above `acceptanceAbove` pesos it waits
 *   for the receiver (`cancellation_status: pending`) until `answerCancellation`, which returns the
 *   `invoice.cancellation_status_updated` event Facturapi would post (types/webhook.ts's ApiEvent);
 * - PDF and XML downloads of a stamped invoice.
 */
const fisica = new Set(['605', '606', '607', '608', '610', '611', '612', '614', '615', '616', '621', '625', '626']);
const moral = new Set(['601', '603', '610', '620', '622', '623', '624', '626']);
const usesByRegime: Record<string, string[]> = {
  G01: ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'],
  G02: ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'],
  G03: ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'],
  D10: ['605', '606', '608', '611', '612', '614', '607', '615', '625'],
  S01: [
    '601',
    '603',
    '605',
    '606',
    '608',
    '610',
    '611',
    '612',
    '614',
    '616',
    '620',
    '621',
    '622',
    '623',
    '624',
    '607',
    '615',
    '625',
    '626',
  ],
  CP01: [
    '601',
    '603',
    '605',
    '606',
    '608',
    '610',
    '611',
    '612',
    '614',
    '616',
    '620',
    '621',
    '622',
    '623',
    '624',
    '607',
    '615',
    '625',
    '626',
  ],
};
const paymentFormsKnown = new Set([
  '01',
  '02',
  '03',
  '04',
  '05',
  '06',
  '08',
  '12',
  '13',
  '14',
  '15',
  '17',
  '23',
  '24',
  '25',
  '26',
  '27',
  '28',
  '29',
  '30',
  '31',
  '99',
]);

type Body = Record<string, unknown>;
type FakeReceipt = FacturapiReceipt & { date: Date; idempotency_key?: string };
type RelatedDocuments = { relationship: string; documents: string[] }[];
type FakeInvoice = FacturapiInvoice & {
  type: 'I' | 'E';
  related_documents: RelatedDocuments;
  receipts: string[];
  global: boolean;
  motive: string | null;
  idempotency_key?: string;
};
/** c_Moneda keys the fake accepts (the SAT's catalogue has every ISO 4217 code; these are the ones we could send). */
const currencies = new Set(['MXN', 'USD', 'EUR', 'CAD']);

/** The currency and exchange rate of an invoice as Anexo 20 checks them; null when fine, else [message, path]. */
function currencyProblem(body: Body): [string, string] | null {
  const currency = body.currency === undefined ? 'MXN' : String(body.currency);
  if (!currencies.has(currency)) return ['"currency" must be a valid c_Moneda key', 'currency'];
  const exchange = body.exchange;
  if (currency === 'MXN')
    return exchange === undefined || exchange === 1 ? null : ['"exchange" must be 1 when currency is MXN', 'exchange'];
  if (typeof exchange !== 'number' || !(exchange > 0) || Math.round(exchange * 1e6) / 1e6 !== exchange)
    return ['"exchange" is required when currency is not MXN: a positive number of up to 6 decimals', 'exchange'];
  return null;
}

export async function startFacturapiFake(options: { apiKey: string; acceptanceAbove?: number }) {
  const app = Fastify();
  const receipts = new Map<string, FakeReceipt>();
  const invoices = new Map<string, FakeInvoice>();
  const requests: { method: string; url: string; body: unknown }[] = [];
  const faults: { match: string; times: number }[] = [];
  const holds: { match: string; reached: () => void; gate: Promise<void> }[] = [];
  const hex = () => randomBytes(12).toString('hex');

  const refuse = (reply: FastifyReply, status: number, message: string, path?: string) =>
    reply
      .status(status)
      .header('content-type', 'application/json')
      .send({ message, ...(path ? { path } : {}), status });

  app.addHook('preHandler', async (request, reply) => {
    requests.push({ method: request.method, url: request.url, body: request.body });
    if (request.headers.authorization !== `Bearer ${options.apiKey}`)
      return refuse(reply, 401, 'Invalid API key provided');
    const held = holds.findIndex((each) => `${request.method} ${request.url}`.startsWith(each.match));
    if (held >= 0) {
      const [hold] = holds.splice(held, 1);
      hold!.reached();
      await hold!.gate;
    }
    const fault = faults.find((each) => each.times > 0 && `${request.method} ${request.url}`.startsWith(each.match));
    if (fault) {
      fault.times--;
      return refuse(reply, 503, 'Service unavailable');
    }
  });

  /** The customer's data as Facturapi checks it for CFDI 4.0; null when it is fine, else [message, path]. */
  function customerProblem(customer: Body | undefined, use: unknown): [string, string] | null {
    if (!customer || typeof customer !== 'object') return ['customer is required', 'customer'];
    const rfc = String(customer.tax_id ?? '');
    const kind = /^[A-ZÑ&]{4}\d{6}[A-Z\d]{3}$/.test(rfc)
      ? 'fisica'
      : /^[A-ZÑ&]{3}\d{6}[A-Z\d]{3}$/.test(rfc)
        ? 'moral'
        : null;
    if (!kind) return ['"customer.tax_id" must be a valid RFC', 'customer.tax_id'];
    if (typeof customer.legal_name !== 'string' || !customer.legal_name.trim())
      return ['"customer.legal_name" is required', 'customer.legal_name'];
    const system = String(customer.tax_system ?? '');
    const generic = rfc === 'XAXX010101000' || rfc === 'XEXX010101000';
    if (!generic && !(kind === 'fisica' ? fisica : moral).has(system))
      return ['El régimen fiscal no corresponde al tipo de persona del RFC', 'customer.tax_system'];
    const zip = (customer.address as Body | undefined)?.zip;
    if (typeof zip !== 'string' || !/^\d{5}$/.test(zip))
      return ['"customer.address.zip" must be 5 digits', 'customer.address.zip'];
    const allowed = usesByRegime[String(use)];
    if (!allowed) return ['"use" must be a valid c_UsoCFDI key', 'use'];
    if (!generic && !allowed.includes(system))
      return ['El uso de CFDI no corresponde al régimen fiscal del receptor', 'use'];
    return null;
  }

  function itemsProblem(items: unknown): [string, string] | null {
    if (!Array.isArray(items) || items.length === 0) return ['"items" must contain at least 1 item', 'items'];
    for (const [index, item] of (items as Body[]).entries()) {
      const product = (item.product ?? {}) as Body;
      if (typeof product.description !== 'string' || !product.description)
        return ['"description" is required', `items.${index}.product.description`];
      if (typeof product.product_key !== 'string' || !/^\d{8}$/.test(product.product_key))
        return ['"product_key" must be a c_ClaveProdServ key', `items.${index}.product.product_key`];
      if (typeof product.price !== 'number' || product.price <= 0)
        return ['"price" must be positive', `items.${index}.product.price`];
    }
    return null;
  }

  const totalOf = (items: Body[]) =>
    items.reduce((sum, item) => sum + Number(item.quantity ?? 1) * Number((item.product as Body).price), 0);

  function stamp(input: {
    customer: Body;
    use: string;
    paymentForm: string;
    total: number;
    receipts: string[];
    global: boolean;
    currency?: string;
    exchange?: number;
    idempotencyKey?: string;
    type?: 'I' | 'E';
    related?: RelatedDocuments;
  }): FakeInvoice {
    const address = input.customer.address as Body | undefined;
    const invoice: FakeInvoice = {
      id: hex(),
      uuid: randomUUID().toUpperCase(),
      type: input.type ?? 'I',
      related_documents: input.related ?? [],
      status: 'valid',
      cancellation_status: 'none',
      customer: {
        legal_name: String(input.customer.legal_name),
        tax_id: String(input.customer.tax_id),
        ...(typeof input.customer.tax_system === 'string' ? { tax_system: input.customer.tax_system } : {}),
        ...(typeof address?.zip === 'string' ? { address: { zip: address.zip } } : {}),
      },
      total: input.total,
      use: input.use,
      payment_form: input.paymentForm,
      currency: input.currency ?? 'MXN',
      exchange: input.exchange ?? 1,
      livemode: false,
      receipts: input.receipts,
      global: input.global,
      motive: null,
      idempotency_key: input.idempotencyKey,
    };
    invoices.set(invoice.id, invoice);
    return invoice;
  }
  const invoiceBody = ({ receipts: _r, global: _g, motive: _m, idempotency_key: _k, ...invoice }: FakeInvoice) =>
    invoice;
  const receiptBody = ({ date: _d, idempotency_key: _k, ...receipt }: FakeReceipt) => receipt;

  app.post('/v2/receipts', async (request, reply) => {
    const body = (request.body ?? {}) as Body;
    if (typeof body.idempotency_key === 'string') {
      const first = [...receipts.values()].find((each) => each.idempotency_key === body.idempotency_key);
      if (first) return receiptBody(first);
    }
    if (!paymentFormsKnown.has(String(body.payment_form)))
      return refuse(reply, 400, '"payment_form" must be a valid c_FormaPago key', 'payment_form');
    const problem = itemsProblem(body.items);
    if (problem) return refuse(reply, 400, ...problem);
    const id = hex();
    const key = randomBytes(5).toString('hex').toUpperCase();
    const receipt: FakeReceipt = {
      id,
      key,
      status: 'open',
      self_invoice_url: `https://factura.space/cxvet/${key}`,
      payment_form: String(body.payment_form),
      total: totalOf(body.items as Body[]),
      invoice: null,
      external_id: typeof body.external_id === 'string' ? body.external_id : undefined,
      livemode: false,
      date: new Date(),
      idempotency_key: typeof body.idempotency_key === 'string' ? body.idempotency_key : undefined,
    };
    receipts.set(id, receipt);
    return receiptBody(receipt);
  });

  app.get<{ Params: { id: string } }>('/v2/receipts/:id', async (request, reply) => {
    const receipt = receipts.get(request.params.id);
    return receipt ? receiptBody(receipt) : refuse(reply, 404, 'Receipt not found');
  });

  // a receipt is cancelled while open only: an invoiced one is cancelled through its invoice
  app.delete<{ Params: { id: string } }>('/v2/receipts/:id', async (request, reply) => {
    const receipt = receipts.get(request.params.id);
    if (!receipt) return refuse(reply, 404, 'Receipt not found');
    if (receipt.status !== 'open')
      return refuse(reply, 400, `El recibo no puede cancelarse: su estado es ${receipt.status}`);
    receipt.status = 'canceled';
    return receiptBody(receipt);
  });

  app.post<{ Params: { id: string } }>('/v2/receipts/:id/invoice', async (request, reply) => {
    const receipt = receipts.get(request.params.id);
    if (!receipt) return refuse(reply, 404, 'Receipt not found');
    if (receipt.status !== 'open')
      return refuse(reply, 400, `El recibo no puede facturarse: su estado es ${receipt.status}`);
    const body = (request.body ?? {}) as Body;
    const problem = customerProblem(body.customer as Body, body.use);
    if (problem) return refuse(reply, 400, ...problem);
    const invoice = stamp({
      customer: body.customer as Body,
      use: String(body.use),
      paymentForm: receipt.payment_form,
      total: receipt.total,
      receipts: [receipt.id],
      global: false,
    });
    receipt.status = 'invoiced_to_customer';
    receipt.invoice = invoice.id;
    return invoiceBody(invoice);
  });

  app.post('/v2/receipts/global-invoice', async (request, reply) => {
    const body = (request.body ?? {}) as Body;
    if (!['day', 'week', 'fortnight', 'month', 'two_months'].includes(String(body.periodicity)))
      return refuse(
        reply,
        400,
        '"periodicity" must be one of [day, week, fortnight, month, two_months]',
        'periodicity',
      );
    const from = body.from ? new Date(String(body.from)) : new Date(0);
    const to = body.to ? new Date(String(body.to)) : new Date();
    const open = [...receipts.values()].filter((each) => each.status === 'open' && each.date >= from && each.date < to);
    if (open.length === 0) return refuse(reply, 400, 'No hay recibos abiertos en el periodo');
    const invoice = stamp({
      customer: { legal_name: 'PUBLICO EN GENERAL', tax_id: 'XAXX010101000' },
      use: 'S01',
      paymentForm: open[0]!.payment_form,
      total: open.reduce((sum, each) => sum + each.total, 0),
      receipts: open.map((each) => each.id),
      global: true,
    });
    for (const each of open) {
      each.status = 'invoiced_globally';
      each.invoice = invoice.id;
    }
    return invoiceBody(invoice);
  });

  /** Invoices (valid or waiting for a cancellation) that a valid egreso relates to with 01. */
  const notesOf = (uuid: string) =>
    [...invoices.values()].filter(
      (each) =>
        each.type === 'E' &&
        each.status !== 'canceled' &&
        each.related_documents.some((related) => related.relationship === '01' && related.documents.includes(uuid)),
    );

  /** An egreso's related documents as the SAT checks them; null when fine, else [message, path]. */
  function egresoProblem(body: Body, total: number): [string, string] | null {
    const related = body.related_documents;
    if (!Array.isArray(related) || related.length === 0)
      return ['"related_documents" is required for an egreso', 'related_documents'];
    for (const [index, each] of (related as Body[]).entries()) {
      if (!['01', '02', '03', '04', '05', '06', '07'].includes(String(each.relationship)))
        return ['"relationship" must be a valid c_TipoRelacion key', `related_documents.${index}.relationship`];
      const documents = each.documents;
      if (!Array.isArray(documents) || documents.length === 0 || documents.some((uuid) => typeof uuid !== 'string'))
        return ['"documents" must contain at least 1 UUID', `related_documents.${index}.documents`];
      if (each.relationship !== '01') continue;
      for (const uuid of documents as string[]) {
        const original = [...invoices.values()].find((invoice) => invoice.uuid === uuid);
        if (!original || original.type !== 'I' || original.status === 'canceled')
          return [`El CFDI relacionado ${uuid} no existe o no está vigente`, `related_documents.${index}.documents`];
        if (original.customer.tax_id !== String((body.customer as Body | undefined)?.tax_id))
          return ['El receptor no es el del CFDI relacionado', 'customer.tax_id'];
        const noted = notesOf(uuid).reduce((sum, note) => sum + note.total, 0);
        if (Math.round((noted + total) * 100) > Math.round(original.total * 100))
          return ['El importe de la nota de crédito excede el del CFDI relacionado', 'items'];
      }
    }
    return null;
  }

  app.post('/v2/invoices', async (request, reply) => {
    const body = (request.body ?? {}) as Body;
    const idempotencyKey = typeof body.idempotency_key === 'string' ? body.idempotency_key : undefined;
    const first = idempotencyKey && [...invoices.values()].find((each) => each.idempotency_key === idempotencyKey);
    if (first) return invoiceBody(first);
    const type = body.type === undefined ? 'I' : body.type;
    if (type !== 'I' && type !== 'E') return refuse(reply, 400, '"type" must be one of [I, E]', 'type');
    const problem =
      customerProblem(body.customer as Body, body.use) ??
      itemsProblem(body.items) ??
      currencyProblem(body) ??
      (type === 'E' ? egresoProblem(body, totalOf(body.items as Body[])) : null);
    if (problem) return refuse(reply, 400, ...problem);
    if (!paymentFormsKnown.has(String(body.payment_form)))
      return refuse(reply, 400, '"payment_form" must be a valid c_FormaPago key', 'payment_form');
    return invoiceBody(
      stamp({
        customer: body.customer as Body,
        use: String(body.use),
        paymentForm: String(body.payment_form),
        total: totalOf(body.items as Body[]),
        receipts: [],
        global: false,
        currency: body.currency === undefined ? 'MXN' : String(body.currency),
        exchange: typeof body.exchange === 'number' ? body.exchange : 1,
        idempotencyKey,
        type,
        related: type === 'E' ? (body.related_documents as RelatedDocuments) : [],
      }),
    );
  });

  app.get<{ Params: { id: string } }>('/v2/invoices/:id', async (request, reply) => {
    const invoice = invoices.get(request.params.id);
    return invoice ? invoiceBody(invoice) : refuse(reply, 404, 'Invoice not found');
  });

  app.delete<{ Params: { id: string }; Querystring: { motive?: string; substitution?: string } }>(
    '/v2/invoices/:id',
    async (request, reply) => {
      const invoice = invoices.get(request.params.id);
      if (!invoice) return refuse(reply, 404, 'Invoice not found');
      const { motive, substitution } = request.query;
      if (!motive || !['01', '02', '03', '04'].includes(motive))
        return refuse(reply, 400, '"motive" must be one of [01, 02, 03, 04]', 'motive');
      if (motive === '01' && !substitution)
        return refuse(reply, 400, '"substitution" is required when motive is 01', 'substitution');
      if (invoice.status === 'canceled') return refuse(reply, 400, 'La factura ya está cancelada');
      if (invoice.cancellation_status === 'pending')
        return refuse(reply, 400, 'La cancelación ya fue solicitada y espera la respuesta del receptor');
      if (notesOf(invoice.uuid).length > 0)
        return refuse(reply, 400, 'El CFDI tiene documentos relacionados vigentes: cancélalos primero');
      invoice.motive = motive;
      if (invoice.total * invoice.exchange > (options.acceptanceAbove ?? Infinity)) {
        invoice.cancellation_status = 'pending';
        return invoiceBody(invoice);
      }
      invoice.status = 'canceled';
      invoice.cancellation_status = 'accepted';
      return invoiceBody(invoice);
    },
  );

  app.get<{ Params: { id: string; format: string } }>('/v2/invoices/:id/:format', async (request, reply) => {
    const invoice = invoices.get(request.params.id);
    if (!invoice) return refuse(reply, 404, 'Invoice not found');
    if (request.params.format === 'pdf')
      return reply
        .header('content-type', 'application/pdf')
        .send(Buffer.from(`%PDF-1.4\n% factura ${invoice.uuid}\n%%EOF\n`));
    if (request.params.format === 'xml')
      return reply
        .header('content-type', 'application/xml')
        .send(
          `<?xml version="1.0" encoding="UTF-8"?>\n<cfdi:Comprobante Version="4.0" TipoDeComprobante="${invoice.type}" Total="${invoice.total.toFixed(2)}">${invoice.related_documents.map((related) => `<cfdi:CfdiRelacionados TipoRelacion="${related.relationship}">${related.documents.map((uuid) => `<cfdi:CfdiRelacionado UUID="${uuid}"/>`).join('')}</cfdi:CfdiRelacionados>`).join('')}<cfdi:Receptor Rfc="${invoice.customer.tax_id}"/><tfd:TimbreFiscalDigital UUID="${invoice.uuid}"/></cfdi:Comprobante>\n`,
        );
    return refuse(reply, 404, 'Not found');
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v2`,
    receipts,
    invoices,
    requests,
    /**
     * The receiver accepts or rejects a cancellation waiting for them; returns the event Facturapi posts to the
     * organization's webhook (`invoice.cancellation_status_updated`, the invoice as `data.object`).
     */
    answerCancellation(id: string, answer: 'accepted' | 'rejected') {
      const invoice = invoices.get(id);
      if (invoice?.cancellation_status !== 'pending') throw new Error(`invoice ${id} awaits no cancellation`);
      invoice.cancellation_status = answer;
      if (answer === 'accepted') invoice.status = 'canceled';
      return {
        created_at: new Date().toISOString(),
        organization: 'cxvet',
        livemode: false,
        type: 'invoice.cancellation_status_updated',
        data: { type: 'invoice', object: invoiceBody(invoice) },
      };
    },
    /** The next `times` calls starting with `match` ('POST /v2/receipts') answer 503. */
    fail(match: string, times: number) {
      faults.push({ match, times });
    },
    /**
     * Holds the next call starting with `match` until `release()`: a test lines two jobs up where they would race.
     * `reached` resolves once the call is waiting.
     */
    hold(match: string) {
      let reached!: () => void;
      let release!: () => void;
      const arrived = new Promise<void>((resolve) => (reached = resolve));
      const gate = new Promise<void>((resolve) => (release = resolve));
      holds.push({ match, reached, gate });
      return { reached: arrived, release };
    },
    close: () => app.close(),
  };
}

export type FacturapiFake = Awaited<ReturnType<typeof startFacturapiFake>>;

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFacturapiClient, FacturapiRefusal, FacturapiUnavailable, reasonForLog } from './facturapi-client.ts';
import { startFacturapiFake, type FacturapiFake } from './facturapi-fake.testing.ts';

let fake: FacturapiFake;
const apiKey = 'sk_test_cliente';
beforeAll(async () => {
  fake = await startFacturapiFake({ apiKey });
});
afterAll(() => fake.close());

const receiptInput = (externalId: string) => ({
  paymentForm: '04',
  description: 'Diplomado',
  totalCents: 249_900,
  externalId,
  productKey: '86101700',
});

describe('the Facturapi adapter', () => {
  it('sends the key as a Bearer token, and a wrong key is refused', async () => {
    const wrong = createFacturapiClient({ apiUrl: fake.url, apiKey: 'sk_test_otra', retries: 0 });
    await expect(wrong.createReceipt(receiptInput('a'))).rejects.toMatchObject({ status: 401 });
  });

  it('retries a 5xx with the same idempotency key: one receipt', async () => {
    const client = createFacturapiClient({ apiUrl: fake.url, apiKey, backoffMs: 1 });
    fake.fail('POST /v2/receipts', 1);
    const receipt = await client.createReceipt(receiptInput('b'));
    const again = await client.createReceipt(receiptInput('b'));
    expect(again.id).toBe(receipt.id);
    expect([...fake.receipts.values()].filter((each) => each.external_id === 'b')).toHaveLength(1);
  });

  it('gives up after its retries: unavailable, for the job to retry later', async () => {
    const client = createFacturapiClient({ apiUrl: fake.url, apiKey, backoffMs: 1, retries: 1 });
    fake.fail('POST /v2/receipts', 2);
    await expect(client.createReceipt(receiptInput('c'))).rejects.toBeInstanceOf(FacturapiUnavailable);
  });

  it('gives up on a call that hangs', async () => {
    // a server that never answers: only the timeout's abort ends the call, as it ends a real fetch
    const hanging = ((_url: string, init: RequestInit) =>
      new Promise<Response>((_, reject) =>
        init.signal!.addEventListener('abort', () => reject(init.signal!.reason as Error)),
      )) as unknown as typeof fetch;
    const client = createFacturapiClient({ apiUrl: fake.url, apiKey, fetch: hanging, timeoutMs: 20, retries: 0 });
    const started = Date.now();
    await expect(
      Promise.race([
        client.createReceipt(receiptInput('d')),
        new Promise((_, reject) => setTimeout(() => reject(new Error('no timeout')), 2000)),
      ]),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('reads a refusal’s message and path, and does not retry it', async () => {
    const client = createFacturapiClient({ apiUrl: fake.url, apiKey, backoffMs: 1 });
    const receipt = await client.createReceipt(receiptInput('e'));
    const before = fake.requests.length;
    const refusal = await client
      .invoiceReceipt(receipt.id, {
        customer: { legal_name: 'X', tax_id: 'GODE561231GR8', tax_system: '601', address: { zip: '06600' } },
        use: 'G03',
      })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(FacturapiRefusal);
    expect(refusal).toMatchObject({ status: 400, path: 'customer.tax_system' });
    expect(fake.requests.length).toBe(before + 1);
  });

  it('logs a refusal without the RFCs it quotes, a person’s or a company’s, and keeps the rest of its reason', () => {
    const refusal = new FacturapiRefusal(
      'CFDI40147: el RFC GODE561231GR8 no está en la lista del SAT; emisor ÑAB010101A1B (ref. 2026-11-29)',
      400,
      null,
    );
    expect(reasonForLog(refusal)).toBe(
      'CFDI40147: el RFC <RFC> no está en la lista del SAT; emisor <RFC> (ref. 2026-11-29)',
    );
    expect(reasonForLog('gode561231gr8')).toBe('<RFC>');
    // a longer run of letters and digits is not an RFC
    expect(reasonForLog('id 65a1b2c3d4e5f60718293a4b')).toBe('id 65a1b2c3d4e5f60718293a4b');
  });

  it('cancels with a motive in the query; the fake refuses another motive, 01 without a substitute, and twice', async () => {
    const client = createFacturapiClient({ apiUrl: fake.url, apiKey, backoffMs: 1 });
    const receipt = await client.createReceipt(receiptInput('f'));
    const invoice = await client.invoiceReceipt(receipt.id, {
      customer: { legal_name: 'X', tax_id: 'GODE561231GR8', tax_system: '612', address: { zip: '06600' } },
      use: 'G03',
    });
    await expect(client.cancelInvoice(invoice.id, '05')).rejects.toMatchObject({ status: 400, path: 'motive' });
    await expect(client.cancelInvoice(invoice.id, '01')).rejects.toMatchObject({ path: 'substitution' });
    expect(await client.cancelInvoice(invoice.id, '02')).toMatchObject({ status: 'canceled' });
    await expect(client.cancelInvoice(invoice.id, '02')).rejects.toMatchObject({ status: 400 });
    await expect(
      client.invoiceReceipt(receipt.id, { customer: invoice.customer as never, use: 'G03' }),
    ).rejects.toMatchObject({
      status: 400,
    });
    expect((await client.download(invoice.id, 'pdf')).subarray(0, 4).toString()).toBe('%PDF');
  });

  it('creates an invoice in dollars with its exchange rate; the fake refuses a missing, zero or too precise rate, and a rate in pesos', async () => {
    const client = createFacturapiClient({ apiUrl: fake.url, apiKey, backoffMs: 1 });
    const input = {
      customer: { legal_name: 'HOSPITAL', tax_id: 'HVE010101AB1', tax_system: '601', address: { zip: '44100' } },
      use: 'G03',
      paymentForm: '31',
      description: 'Suscripción mensual',
      totalCents: 1_999,
      currency: 'USD',
      exchange: 17.254_321,
      productKey: '86101700',
      idempotencyKey: 'factura-usd-1',
    };
    for (const [wrong, path] of [
      [{ exchange: 0 }, 'exchange'],
      [{ exchange: 17.123_456_7 }, 'exchange'],
      [{ currency: 'MXN' }, 'exchange'],
      [{ currency: 'DLS' }, 'currency'],
    ] as const)
      await expect(
        client.createInvoice({ ...input, ...wrong, idempotencyKey: `otra-${path}-${JSON.stringify(wrong)}` }),
      ).rejects.toMatchObject({ status: 400, path });
    const invoice = await client.createInvoice(input);
    expect(invoice).toMatchObject({ currency: 'USD', exchange: 17.254_321, payment_form: '31', total: 19.99 });
    // a retry with the same key answers the same invoice
    expect((await client.createInvoice(input)).id).toBe(invoice.id);
    expect(await client.getInvoice(invoice.id)).toMatchObject({ id: invoice.id, status: 'valid' });
  });
});

import { isNull } from 'drizzle-orm';
import { deliverMercadoPago } from '#server/features/payments/mercadopago.testing.ts';
import { expect } from 'vitest';
import { jobs } from '#server/db/schema/index.ts';
import { createTestApp, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { startMercadoPagoFake, type MercadoPagoFake } from '#server/services/payments/simulated-mercadopago.ts';
import { startFacturapiFake } from '#server/services/facturapi/facturapi-fake.testing.ts';
import { createDiploma, memberRequest } from '#server/features/diplomas/diplomas.testing.ts';

/** A persona física's valid fiscal data (RFC of 13, régimen 612, uso G03). */
export const personaFisica = {
  rfc: 'GODE561231GR8',
  legalName: 'EMILIA GOMEZ DIAZ',
  taxSystem: '612',
  cfdiUse: 'G03',
  zip: '06600',
} as const;

/** A persona moral's valid fiscal data (RFC of 12, régimen 601, uso G03): a hospital paying for its staff. */
export const personaMoral = {
  rfc: 'HVE010101AB1',
  legalName: 'HOSPITAL VETERINARIO DEL CENTRO',
  taxSystem: '601',
  cfdiUse: 'G03',
  zip: '44100',
} as const;

/** A member who paid a diploma in pesos (`method`), the payment approved at Mercado Pago and applied. */
export async function paidInPesos(t: TestApp, mercadoPago: MercadoPagoFake, method: 'oxxo' | 'clabe' = 'oxxo') {
  const { cookie, user } = await signedInAs(t, { type: 'Premium' });
  const diploma = await createDiploma(t, { values: { costCents: 14_990, costMxnCents: 249_900 } });
  const started = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/pesos`, { method });
  expect(started.statusCode).toBe(200);
  const { paymentId } = started.json() as { paymentId: string };
  mercadoPago.approve(paymentId);
  await deliver(t, mercadoPago.notification('payment', paymentId));
  const mine = (await memberRequest(t, cookie, 'GET', '/api/facturas')).json() as {
    payments: { paymentId: string; state: string }[];
  };
  expect(mine.payments).toHaveLength(1);
  return { cookie, user, mercadoPagoId: paymentId, paymentId: mine.payments[0]!.paymentId };
}

/** Posts a Mercado Pago notification and runs the jobs it queued (and the receipt job those queued). */
export const deliver = deliverMercadoPago;

/** Makes every job waiting for a retry due now, and runs them (what the backoff would do later). */
export async function retryNow(t: TestApp) {
  await t.db
    .update(jobs)
    .set({ runAt: new Date(Date.now() - 1000) })
    .where(isNull(jobs.doneAt));
  await t.app.services.jobs.runDue();
}

/**
 * A test app that takes pesos through the strict fake Mercado Pago and invoices through the strict fake Facturapi
 * (`acceptanceAbove`: the pesos above which a cancellation waits for the receiver).
 */
export async function startFacturasApp(
  options: { acceptanceAbove?: number; /** The app's log, at info. */ logStream?: NodeJS.WritableStream } = {},
) {
  const { logStream, ...facturapiOptions } = options;
  const accessToken = 'TEST-cxvet-token';
  const webhookSecret = 'secreto-de-notificaciones';
  const apiKey = 'sk_test_cxvet';
  const mercadoPago = await startMercadoPagoFake({ accessToken, webhookSecret });
  const facturapi = await startFacturapiFake({ apiKey, ...facturapiOptions });
  const t = await createTestApp(
    {
      paymentsProviders: ['simulado'],
      mercadopago: { apiUrl: mercadoPago.url, accessToken, webhookSecret },
      facturapi: { apiUrl: facturapi.url, apiKey },
      ...(logStream ? { logLevel: 'info' as const } : {}),
    },
    undefined,
    { logStream },
  );
  return {
    t,
    mercadoPago,
    facturapi,
    apiKey,
    async close() {
      await t.close();
      await mercadoPago.close();
      await facturapi.close();
    },
  };
}

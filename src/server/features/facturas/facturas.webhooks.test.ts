import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { paymentCreditNotes, paymentFacturas } from '#server/db/schema/index.ts';
import type { MercadoPagoFake } from '#server/services/payments/simulated-mercadopago.ts';
import type { FacturapiFake } from '#server/services/facturapi/facturapi-fake.testing.ts';
import { memberRequest } from '#server/features/diplomas/diplomas.testing.ts';
import { deliver, paidInPesos, personaFisica, retryNow, startFacturasApp } from './facturas.testing.ts';

let mercadoPago: MercadoPagoFake;
let facturapi: FacturapiFake;
let t: TestApp;
let app: Awaited<ReturnType<typeof startFacturasApp>>;

const logLines: string[] = [];
beforeAll(async () => {
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  // the diploma costs 2,499 pesos: above 1,000 its cancellation waits for the receiver's acceptance
  app = await startFacturasApp({ acceptanceAbove: 1000, logStream });
  ({ t, mercadoPago, facturapi } = app);
}, 180_000);
afterAll(async () => app.close());

const facturaOf = async (paymentId: string) =>
  (await t.db.select().from(paymentFacturas).where(eq(paymentFacturas.paymentId, paymentId)))[0]!;
const stateOf = async (cookie: string, paymentId: string) =>
  (
    (await memberRequest(t, cookie, 'GET', '/api/facturas')).json() as {
      payments: { paymentId: string; state: string }[];
    }
  ).payments.find((each) => each.paymentId === paymentId)?.state;
/** Facturapi's notification, then the job it queued (the route starts it without waiting for it). */
async function notify(event: object) {
  const response = await t.app.inject({ method: 'POST', url: '/api/payments/webhooks/facturapi', payload: event });
  await t.app.services.jobs.runDue();
  return response;
}

/** A member's factura issued, and an Admin's cancellation of it with motive 02 waiting for the receiver. */
async function cancellationPending() {
  const { cookie, paymentId } = await paidInPesos(t, mercadoPago);
  await memberRequest(t, cookie, 'POST', `/api/facturas/${paymentId}`, personaFisica);
  const admin = await signedInAs(t, { type: 'Admin' });
  const asked = await memberRequest(t, admin.cookie, 'POST', `/api/admin/facturas/${paymentId}/cancel`, {
    motive: '02',
  });
  expect(asked.statusCode).toBe(200);
  expect(asked.json()).toMatchObject({ state: 'cancelacion_pendiente', cancellationMotive: '02' });
  const { invoiceId } = await facturaOf(paymentId);
  return { cookie, admin, paymentId, invoiceId: invoiceId! };
}

describe('Facturapi’s notifications of a cancellation awaiting the receiver', () => {
  it('shows Cancelación pendiente, then Cancelada once accepted; the same notification twice changes nothing', async () => {
    const { cookie, admin, paymentId, invoiceId } = await cancellationPending();
    expect(await stateOf(cookie, paymentId)).toBe('cancelacion_pendiente');
    // cancelling again while the receiver has not answered is not offered
    const again = await memberRequest(t, admin.cookie, 'POST', `/api/admin/facturas/${paymentId}/cancel`, {
      motive: '02',
    });
    expect(again.statusCode).toBe(404);
    const event = facturapi.answerCancellation(invoiceId, 'accepted');
    expect((await notify(event)).statusCode).toBe(200);
    expect(await facturaOf(paymentId)).toMatchObject({ invoiceStatus: 'canceled' });
    expect(await stateOf(cookie, paymentId)).toBe('cancelada');
    const { updatedAt } = await facturaOf(paymentId);
    expect((await notify(event)).statusCode).toBe(200);
    expect((await facturaOf(paymentId)).updatedAt).toEqual(updatedAt);
    expect(await stateOf(cookie, paymentId)).toBe('cancelada');
  });

  it('shows a rejected cancellation: the factura stays valid and the Admin may ask again', async () => {
    const { cookie, admin, paymentId, invoiceId } = await cancellationPending();
    await notify(facturapi.answerCancellation(invoiceId, 'rejected'));
    expect(await stateOf(cookie, paymentId)).toBe('cancelacion_rechazada');
    const pdf = await memberRequest(t, cookie, 'GET', `/api/facturas/${paymentId}/pdf`);
    expect(pdf.statusCode).toBe(200);
    const list = (await memberRequest(t, admin.cookie, 'GET', '/api/admin/facturas')).json() as {
      payments: { paymentId: string; state: string }[];
    };
    expect(list.payments.find((each) => each.paymentId === paymentId)?.state).toBe('cancelacion_rechazada');
    const asked = await memberRequest(t, admin.cookie, 'POST', `/api/admin/facturas/${paymentId}/cancel`, {
      motive: '03',
    });
    expect(asked.json()).toMatchObject({ state: 'cancelacion_pendiente', cancellationMotive: '03' });
  });

  it('believes Facturapi, not the body: a forged notification changes nothing', async () => {
    const { cookie, paymentId, invoiceId } = await cancellationPending();
    const forged = {
      type: 'invoice.cancellation_status_updated',
      data: { type: 'invoice', object: { id: invoiceId, status: 'canceled', cancellation_status: 'accepted' } },
    };
    expect((await notify(forged)).statusCode).toBe(200);
    expect(await stateOf(cookie, paymentId)).toBe('cancelacion_pendiente');
    // an invoice that is not ours, and an event about something else, are acknowledged and ignored
    expect((await notify({ ...forged, data: { object: { id: 'otra' } } })).statusCode).toBe(200);
    expect((await notify({ type: 'receipt.status_updated', data: { object: { id: invoiceId } } })).statusCode).toBe(
      200,
    );
    expect((await notify({ type: 'invoice.cancellation_status_updated' })).statusCode).toBe(400);
  });

  it('starts the job queue only for an invoice of ours, and logs neither the body nor its customer', async () => {
    const { invoiceId } = await cancellationPending();
    const runDue = vi.spyOn(t.app.services.jobs, 'runDue');
    const post = (event: object) =>
      t.app.inject({ method: 'POST', url: '/api/payments/webhooks/facturapi', payload: event });
    const customer = { legal_name: 'ROSAURA QUINTERO VELASCO', tax_id: 'QUVR800101AB1', email: 'rosaura@example.com' };
    try {
      const notOurs = { type: 'invoice.status_updated', data: { object: { id: 'factura-ajena-7731', customer } } };
      expect((await post(notOurs)).statusCode).toBe(200);
      expect(
        (await post({ type: 'receipt.status_updated', data: { object: { id: invoiceId, customer } } })).statusCode,
      ).toBe(200);
      expect(runDue).not.toHaveBeenCalled();
      const ours = facturapi.answerCancellation(invoiceId, 'accepted');
      expect(
        (await post({ ...ours, data: { ...ours.data, object: { ...ours.data.object, customer } } })).statusCode,
      ).toBe(200);
      expect(runDue).toHaveBeenCalledTimes(1);
      await runDue.mock.results[0]!.value;
    } finally {
      runDue.mockRestore();
    }
    const logged = logLines.join('\n');
    expect(logged).toContain('/api/payments/webhooks/facturapi');
    for (const secret of [...Object.values(customer), 'factura-ajena-7731', invoiceId])
      expect(logged).not.toContain(secret);
  });

  it('shows a refund’s cancellation pending until the receiver accepts it', async () => {
    const { cookie, mercadoPagoId, paymentId } = await paidInPesos(t, mercadoPago);
    await memberRequest(t, cookie, 'POST', `/api/facturas/${paymentId}`, personaFisica);
    mercadoPago.refund(mercadoPagoId);
    await deliver(t, mercadoPago.notification('payment', mercadoPagoId));
    expect(await facturaOf(paymentId)).toMatchObject({ invoiceStatus: 'cancel_pending', cancellationMotive: '02' });
    expect(await stateOf(cookie, paymentId)).toBe('cancelacion_pendiente');
    await notify(facturapi.answerCancellation((await facturaOf(paymentId)).invoiceId!, 'accepted'));
    expect(await stateOf(cookie, paymentId)).toBe('cancelada');
  });

  it('cancels the factura of a payment refunded in steps only once the receiver accepted its nota de crédito’s cancellation', async () => {
    const { cookie, mercadoPagoId, paymentId } = await paidInPesos(t, mercadoPago);
    await memberRequest(t, cookie, 'POST', `/api/facturas/${paymentId}`, personaFisica);
    mercadoPago.refundPart(mercadoPagoId, 1200);
    await deliver(t, mercadoPago.notification('payment', mercadoPagoId));
    const noteOf = async () =>
      (await t.db.select().from(paymentCreditNotes).where(eq(paymentCreditNotes.paymentId, paymentId)))[0]!;
    expect(await noteOf()).toMatchObject({ status: 'valid', amountCents: 120_000 });
    mercadoPago.refund(mercadoPagoId);
    await deliver(t, mercadoPago.notification('payment', mercadoPagoId));
    // the note's cancellation waits for the receiver, and the factura is not asked before it ends
    const note = await noteOf();
    expect(note.status).toBe('cancel_pending');
    expect(facturapi.invoices.get(note.invoiceId!)).toMatchObject({ cancellation_status: 'pending', motive: '02' });
    expect(await facturaOf(paymentId)).toMatchObject({ invoiceStatus: 'valid', cancellationMotive: null });
    await retryNow(t);
    expect((await facturaOf(paymentId)).invoiceStatus).toBe('valid');
    await notify(facturapi.answerCancellation(note.invoiceId!, 'accepted'));
    expect((await noteOf()).status).toBe('canceled');
    await retryNow(t);
    expect(await facturaOf(paymentId)).toMatchObject({ invoiceStatus: 'cancel_pending', cancellationMotive: '02' });
    await notify(facturapi.answerCancellation((await facturaOf(paymentId)).invoiceId!, 'accepted'));
    expect(await stateOf(cookie, paymentId)).toBe('cancelada');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { diplomaTransactions, diplomaUsers, payments } from '#server/db/schema/index.ts';
import { captureWebhooks, postWebhook, pressCheckout, simulator } from '#server/features/payments/payments.testing.ts';
import { createDiploma, memberRequest } from './diplomas.testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const enrolments = (diplomaId: string, userId: string) =>
  t.db
    .select()
    .from(diplomaUsers)
    .where(and(eq(diplomaUsers.diplomaId, diplomaId), eq(diplomaUsers.userId, userId)));

async function startPurchase(cookie: string, diplomaId: string) {
  const response = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diplomaId}/purchase`);
  if (response.statusCode !== 200) throw new Error(`purchase: ${response.statusCode} ${response.body}`);
  return response.json() as { orderId: string; approvalUrl: string };
}

describe('buying a diploma with the simulated provider', () => {
  it("creates an order for the diploma's cost with a reference of diploma and member, and records the attempt", async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { isExternal: true, values: { costCents: 25050 } });
    const { orderId, approvalUrl } = await startPurchase(cookie, diploma.id);
    expect(new URL(approvalUrl).pathname).toBe(`/pago-simulado/orden/${orderId}`);
    expect(await simulator(t).describe('order', orderId)).toMatchObject({
      amountCents: 25050,
      customId: user.id,
      description: 'Diplomado: Diplomado de Prueba en Cirugía',
    });
    const [row] = await t.db.select().from(diplomaTransactions).where(eq(diplomaTransactions.providerOrderId, orderId));
    expect(row).toMatchObject({
      diplomaId: diploma.id,
      userId: user.id,
      amountCents: 25050,
      currency: 'USD',
      status: 'CREATED',
      data: { reference: `${diploma.id}:${user.id}` },
    });
  });

  it('enrols the member once the browser returns with an approved order, with a payment in the history', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { isExternal: true });
    const { orderId } = await startPurchase(cookie, diploma.id);
    const approved = await pressCheckout(t, orderId, 'approve', 'orden');
    const back = new URL(String(approved.headers.location));
    expect(back.pathname).toBe(`/mis-diplomados/finalize/${diploma.id}`);
    expect(back.searchParams.get('token')).toBe(orderId);
    const confirmed = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/confirm`, {
      orderId,
    });
    expect(confirmed.json()).toEqual({ isEnrolled: true });
    expect(await enrolments(diploma.id, user.id)).toHaveLength(1);
    expect((await memberRequest(t, cookie, 'GET', `/api/diplomas/${diploma.id}/enrollment`)).json()).toEqual({
      isEnrolled: true,
    });
    expect(await t.db.select().from(payments).where(eq(payments.userId, user.id))).toMatchObject([
      { kind: 'order', result: 'COMPLETADO', amountCents: 15000 },
    ]);
    const [row] = await t.db.select().from(diplomaTransactions).where(eq(diplomaTransactions.providerOrderId, orderId));
    expect(row!.status).toBe('COMPLETED');
  });

  it("grants nothing for a forged order id, an order not yet approved, or another member's order", async () => {
    const buyer = await signedInAs(t, { type: 'Premium' });
    const thief = await signedInAs(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { isExternal: true });
    const forged = await memberRequest(t, thief.cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/confirm`, {
      orderId: 'SIM-ORDER-FALSO',
    });
    expect(forged.statusCode).toBe(403);
    const { orderId } = await startPurchase(buyer.cookie, diploma.id);
    expect(
      (await memberRequest(t, buyer.cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/confirm`, { orderId }))
        .statusCode,
    ).toBe(403);
    await pressCheckout(t, orderId, 'approve', 'orden');
    expect(
      (await memberRequest(t, thief.cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/confirm`, { orderId }))
        .statusCode,
    ).toBe(403);
    const other = await createDiploma(t, { isExternal: true });
    expect(
      (await memberRequest(t, buyer.cookie, 'POST', `/api/diplomas/${other.id}/purchase/confirm`, { orderId }))
        .statusCode,
    ).toBe(403);
    expect(await enrolments(diploma.id, thief.user.id)).toHaveLength(0);
    expect(await enrolments(other.id, buyer.user.id)).toHaveLength(0);
  });

  it('ends with the member enrolled through the webhook and the job runner when the browser closes after paying', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { isExternal: true });
    const { orderId } = await startPurchase(cookie, diploma.id);
    // the browser never comes back to /finalize: only the provider's webhook, applied by the job runner, enrols
    await pressCheckout(t, orderId, 'approve', 'orden');
    await t.app.services.jobs.runDue();
    expect(await enrolments(diploma.id, user.id)).toHaveLength(1);
    expect((await simulator(t).describe('order', orderId))?.status).toBe('COMPLETED');
  });

  it('enrols once when the order webhook is replayed 100 times, even before the job runner ran', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { isExternal: true });
    const { orderId } = await startPurchase(cookie, diploma.id);
    const hook = captureWebhooks(t);
    try {
      await pressCheckout(t, orderId, 'approve', 'orden');
    } finally {
      hook.restore();
    }
    const approval = hook.captured.find((event) => event.type === 'CHECKOUT.ORDER.APPROVED')!;
    const replies = await Promise.all(
      Array.from({ length: 100 }, () => postWebhook(t, approval.rawBody, approval.headers)),
    );
    expect(replies.every((reply) => reply.statusCode === 200)).toBe(true);
    // stored once (with its job, in one transaction: a crash here loses nothing), every other delivery a duplicate;
    // the route starts a job pass at once, so whether it has applied it yet is a race this test does not assert
    const outcomes = replies.map((reply) => (reply.json() as { outcome: string }).outcome);
    expect(outcomes.filter((outcome) => outcome === 'stored')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'duplicate')).toHaveLength(99);
    await t.app.services.jobs.runDue();
    await simulator(t).settled();
    await t.app.services.jobs.runDue();
    for (let round = 0; round < 3; round++)
      await Promise.all(Array.from({ length: 10 }, () => postWebhook(t, approval.rawBody, approval.headers)));
    await t.app.services.jobs.runDue();
    expect(await enrolments(diploma.id, user.id)).toHaveLength(1);
    expect(await t.db.select().from(payments).where(eq(payments.userId, user.id))).toHaveLength(1);
  });

  it('removes access when the provider reports the capture refunded', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { isExternal: true });
    const { orderId } = await startPurchase(cookie, diploma.id);
    await pressCheckout(t, orderId, 'approve', 'orden');
    await t.app.services.jobs.runDue();
    expect(await enrolments(diploma.id, user.id)).toHaveLength(1);
    await pressCheckout(t, orderId, 'refund', 'orden');
    await t.app.services.jobs.runDue();
    expect(await enrolments(diploma.id, user.id)).toHaveLength(0);
    const [row] = await t.db.select().from(diplomaTransactions).where(eq(diplomaTransactions.providerOrderId, orderId));
    expect(row!.status).toBe('REFUNDED');
  });

  it('records a payment error the browser saw, and refuses to sell a diploma the member is already in', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { isExternal: true, memberIds: [user.id] });
    expect((await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase`)).statusCode).toBe(409);
    const logged = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/error`, {
      message: 'INSTRUMENT_DECLINED',
      data: { orderId: 'X' },
    });
    expect(logged.statusCode).toBe(200);
    const rows = await t.db
      .select()
      .from(diplomaTransactions)
      .where(and(eq(diplomaTransactions.userId, user.id), eq(diplomaTransactions.status, 'ERROR_CLIENT')));
    expect(rows).toMatchObject([{ error: 'INSTRUMENT_DECLINED', data: { orderId: 'X' } }]);
  });

  it('keeps only the message and the order of a reported payment error, however much the browser sends', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { isExternal: true });
    const junk = Object.fromEntries(Array.from({ length: 250 }, (_, index) => [`k${index}`, 'x'.repeat(1000)]));
    const logged = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/error`, {
      message: 'INSTRUMENT_DECLINED',
      data: { orderId: 'ORDEN-1', ...junk, nested: { deep: junk } },
      extra: junk,
    });
    expect(logged.statusCode, logged.body).toBe(200);
    const tooLong = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/error`, {
      message: 'x',
      data: { orderId: 'x'.repeat(101) },
    });
    expect(tooLong.statusCode).toBe(400);
    const rows = await t.db
      .select()
      .from(diplomaTransactions)
      .where(and(eq(diplomaTransactions.userId, user.id), eq(diplomaTransactions.status, 'ERROR_CLIENT')));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.data).toEqual({ orderId: 'ORDEN-1' });
    expect(JSON.stringify(rows[0]).length).toBeLessThan(2000);
  });
});

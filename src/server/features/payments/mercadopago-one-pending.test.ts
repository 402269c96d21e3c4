import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { migrationsFolder } from '#server/db/migrations-folder.ts';
import { createTestApp, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { diplomaTransactions, diplomaUsers, paymentOrders } from '#server/db/schema/index.ts';
import { startMercadoPagoFake, type MercadoPagoFake } from '#server/services/payments/simulated-mercadopago.ts';
import { createDiploma, memberRequest } from '#server/features/diplomas/diplomas.testing.ts';

let fake: MercadoPagoFake;
let t: TestApp;
const accessToken = 'TEST-cxvet-token';
const webhookSecret = 'secreto-de-notificaciones';

beforeAll(async () => {
  fake = await startMercadoPagoFake({ accessToken, webhookSecret });
  t = await createTestApp({
    paymentsProviders: ['simulado'],
    mercadopago: { apiUrl: fake.url, accessToken, webhookSecret },
  });
}, 180_000);
afterAll(async () => {
  await t.close();
  await fake.close();
});

const enrolled = async (diplomaId: string, userId: string) =>
  (
    await t.db
      .select()
      .from(diplomaUsers)
      .where(and(eq(diplomaUsers.diplomaId, diplomaId), eq(diplomaUsers.userId, userId)))
  ).length > 0;
const orderOf = async (paymentId: string) =>
  (await t.db.select().from(paymentOrders).where(eq(paymentOrders.providerOrderId, paymentId)))[0];

/** A Premium member and a diploma priced in pesos; the member starts paying it with `method`. */
async function startPaying(method: 'oxxo' | 'clabe' = 'oxxo') {
  const { cookie, user } = await signedInAs(t, { type: 'Premium' });
  const diploma = await createDiploma(t, { values: { costCents: 14_990, costMxnCents: 249_900 } });
  const response = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/pesos`, { method });
  expect(response.statusCode).toBe(200);
  const payment = response.json() as {
    paymentId: string;
    amountCents: number;
    expiresAt: string;
    instructionsUrl: string | null;
    clabe: string | null;
  };
  return { cookie, user, diploma, payment };
}

/** The payments this member asked Mercado Pago to create. */
const createdFor = (email: string) =>
  fake.requests.filter(
    (each) =>
      each.method === 'POST' &&
      each.url === '/v1/payments' &&
      (each.body as { payer?: { email?: string } }).payer?.email === email,
  );

describe('one payment waiting for money per member and diploma', () => {
  it('answers two requests made at the same moment with one voucher, created once', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { values: { costMxnCents: 180_000 } });
    const url = `/api/diplomas/${diploma.id}/purchase/pesos`;
    const [first, second] = await Promise.all([
      memberRequest(t, cookie, 'POST', url, { method: 'oxxo' }),
      memberRequest(t, cookie, 'POST', url, { method: 'oxxo' }),
    ]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.json().paymentId).toBe(first.json().paymentId);
    expect(second.json().instructionsUrl).toBe(first.json().instructionsUrl);
    expect(createdFor(user.email)).toHaveLength(1);
    expect(await t.db.select().from(paymentOrders).where(eq(paymentOrders.userId, user.id))).toEqual([
      expect.objectContaining({ providerOrderId: first.json().paymentId, status: 'PENDING' }),
    ]);
    expect(await t.db.select().from(diplomaTransactions).where(eq(diplomaTransactions.userId, user.id))).toHaveLength(
      1,
    );
    expect((await memberRequest(t, cookie, 'GET', '/api/profile/payments/pending')).json().payments).toHaveLength(1);
  });

  it('answers a later request, by SPEI too, with the OXXO voucher still waiting for money', async () => {
    const { cookie, user, diploma, payment } = await startPaying('oxxo');
    const again = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/pesos`, {
      method: 'clabe',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ paymentId: payment.paymentId, method: 'oxxo', amountCents: 249_900 });
    expect(createdFor(user.email)).toHaveLength(1);
  });

  it('makes a new voucher once the first expired, even when its notification never came', async () => {
    const { cookie, user, diploma, payment } = await startPaying('oxxo');
    fake.expire(payment.paymentId);
    const again = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/pesos`, {
      method: 'oxxo',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().paymentId).not.toBe(payment.paymentId);
    expect(await orderOf(payment.paymentId)).toMatchObject({ status: 'EXPIRED' });
    expect(await orderOf(again.json().paymentId)).toMatchObject({ status: 'PENDING' });
    expect(createdFor(user.email)).toHaveLength(2);
    expect(await enrolled(diploma.id, user.id)).toBe(false);
  });

  it('refuses a new voucher when the first was paid, and enrols from the read-back', async () => {
    const { cookie, user, diploma, payment } = await startPaying('oxxo');
    fake.approve(payment.paymentId);
    const again = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/pesos`, {
      method: 'oxxo',
    });
    expect(again.statusCode).toBe(409);
    expect(await enrolled(diploma.id, user.id)).toBe(true);
    expect(createdFor(user.email)).toHaveLength(1);
  });

  it('does not let a place left by a crash block the member', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { values: { costMxnCents: 120_000 } });
    await t.db.insert(paymentOrders).values({
      userId: user.id,
      provider: 'mercadopago',
      providerOrderId: 'reserved:left-by-a-crash',
      amountCents: 120_000,
      currency: 'MXN',
      description: 'Diplomado',
      reference: diploma.id,
      status: 'PENDING',
      createdAt: new Date(Date.now() - 10 * 60_000),
    });
    expect((await memberRequest(t, cookie, 'GET', '/api/profile/payments/pending')).json().payments).toEqual([]);
    const response = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/pesos`, {
      method: 'oxxo',
    });
    expect(response.statusCode).toBe(200);
    expect(await t.db.select().from(paymentOrders).where(eq(paymentOrders.userId, user.id))).toEqual([
      expect.objectContaining({ providerOrderId: response.json().paymentId, status: 'PENDING' }),
    ]);
  });
});

describe('the migration that allows one payment waiting per member and diploma', () => {
  it('keeps the newest of duplicates stored before it pending and marks the older superseded', async () => {
    const { user } = await signedInAs(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { values: { costMxnCents: 90_000 } });
    const statements = readFileSync(path.join(migrationsFolder, '0020_one_pending_payment.sql'), 'utf8').split(
      '--> statement-breakpoint',
    );
    await t.db.execute(sql.raw('drop index payment_orders_one_pending_idx'));
    const row = (id: string, minutesAgo: number) => ({
      userId: user.id,
      provider: 'mercadopago' as const,
      providerOrderId: id,
      amountCents: 90_000,
      currency: 'MXN',
      description: 'Diplomado',
      reference: diploma.id,
      status: 'PENDING',
      createdAt: new Date(Date.now() - minutesAgo * 60_000),
    });
    await t.db.insert(paymentOrders).values([row('dup-old', 30), row('dup-new', 5), row('dup-older', 60)]);
    for (const statement of statements) await t.db.execute(sql.raw(statement));
    const rows = await t.db.select().from(paymentOrders).where(eq(paymentOrders.reference, diploma.id));
    expect(Object.fromEntries(rows.map((each) => [each.providerOrderId, each.status]))).toEqual({
      'dup-new': 'PENDING',
      'dup-old': 'SUPERSEDED',
      'dup-older': 'SUPERSEDED',
    });
    // the index is back: a second pending payment for the diploma is refused by the database
    await expect(t.db.insert(paymentOrders).values(row('dup-again', 0))).rejects.toThrow();
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#server/testing/test-app.ts';
import { createUser } from '#server/testing/factories.ts';
import type { PaymentResult } from '#shared/payments/payments.rules.ts';
import { recordProviderPayments } from './payments-history.ts';

// A reconciliation reads a member's whole history at once: its refunds go to the listener in one call (one query for
// the facturas they might cancel, not one per refund), on every reading.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe("a reading of the provider's payments", () => {
  it('tells the listener every refunded payment of the reading at once, again at the next reading, and nothing else', async () => {
    const user = await createUser(t);
    const row = (result: PaymentResult, providerPaymentId = randomUUID()) => ({
      userId: user.id,
      provider: 'paypal' as const,
      providerPaymentId,
      kind: 'subscription' as const,
      result,
      amountCents: 999,
    });
    const heard: string[][] = [];
    const listener = async (ids: string[]) => void heard.push(ids);
    const reading = [row('REEMBOLSADO'), row('COMPLETADO'), row('REEMBOLSADO')];
    await recordProviderPayments(t.db, reading, listener);
    expect(heard).toHaveLength(1);
    expect(heard[0]).toHaveLength(2);
    await recordProviderPayments(t.db, reading, listener);
    expect(heard).toHaveLength(2);
    expect([...heard[1]!].sort()).toEqual([...heard[0]!].sort());
    await recordProviderPayments(t.db, [row('COMPLETADO')], listener);
    expect(heard).toHaveLength(2);
  });
});

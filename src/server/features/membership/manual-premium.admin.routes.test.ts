import { describe, expect, it } from 'vitest';
import { useConsoleTestApp } from '#server/testing/console-test-app.ts';
import { eq } from 'drizzle-orm';
import { createUser } from '#server/testing/factories.ts';
import { users } from '#server/db/schema/index.ts';

const { state, call: send } = useConsoleTestApp({ type: 'Admin', email: 'jefa@example.com', name: 'Jefa' });
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie?: string, payload?: object) =>
  send(method, url, payload, cookie ?? null);

describe('manual Premium', () => {
  it('upgrades a free user for a month, lists it with its expiry, and downgrades it', async () => {
    const user = await createUser(state.t, { email: 'mano@example.com' });
    expect(
      (await call('GET', '/api/admin/manual-premium/candidates?q=mano', state.admin.cookie))
        .json()
        .users.map((u: { email: string }) => u.email),
    ).toEqual(['mano@example.com']);
    expect(
      (
        await call('POST', '/api/admin/manual-premium/upgrade', state.admin.cookie, {
          userId: user.id,
          period: 'month',
        })
      ).statusCode,
    ).toBe(204);
    const [upgraded] = await state.t.db.select().from(users).where(eq(users.id, user.id));
    expect(upgraded).toMatchObject({
      type: 'Premium',
      subscriptionId: 'MANUAL',
      annualPlan: false,
      paymentStatus: 'BIEN',
    });
    const listed = (await call('GET', '/api/admin/manual-premium', state.admin.cookie))
      .json()
      .users.find((u: { id: string }) => u.id === user.id);
    expect(listed.plan).toBe('Mensual');
    expect(new Date(listed.expiresAt).getTime() - new Date(listed.paymentDay).getTime()).toBe(30 * 86_400_000);
    expect(
      (await call('POST', '/api/admin/manual-premium/upgrade', state.admin.cookie, { userId: user.id, period: 'year' }))
        .statusCode,
    ).toBe(409);
    expect(
      (await call('POST', '/api/admin/manual-premium/downgrade', state.admin.cookie, { userId: user.id })).statusCode,
    ).toBe(204);
    const [downgraded] = await state.t.db.select().from(users).where(eq(users.id, user.id));
    expect(downgraded).toMatchObject({
      type: 'Gratis',
      subscriptionId: null,
      paymentDay: null,
      terminationDate: null,
      annualPlan: false,
      paymentStatus: 'BIEN',
    });
  });

  it('does not downgrade a paying subscriber', async () => {
    const user = await createUser(state.t, { type: 'Premium', subscriptionId: 'I-PAYPAL' });
    expect(
      (await call('POST', '/api/admin/manual-premium/downgrade', state.admin.cookie, { userId: user.id })).statusCode,
    ).toBe(409);
  });
});

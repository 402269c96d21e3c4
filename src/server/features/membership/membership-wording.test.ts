import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { mailOutbox } from '#server/db/schema/index.ts';
import { pressCheckout, startSubscription, subscribeAndApprove } from '#server/features/payments/payments.testing.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { createTestApp, type TestApp } from '#server/testing/test-app.ts';
import { manualPremiumExpiry } from '#shared/membership/membership.rules.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const day = 86_400_000;
const membershipOf = async (cookie: string) =>
  (await t.app.inject({ url: '/api/profile', headers: { cookie } })).json().membership;
const mailTextsTo = async (email: string) =>
  (await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, email))).map((mail) => mail.text);

describe('what the membership says about dates', () => {
  it('a manual Premium shows when it ends and no next payment, since nothing will be charged', async () => {
    const paymentDay = new Date(Date.now() - 5 * day);
    const { cookie } = await signedInAs(t, {
      type: 'Premium',
      subscriptionId: 'MANUAL',
      annualPlan: false,
      paymentDay,
    });
    expect(await membershipOf(cookie)).toMatchObject({
      isManual: true,
      nextPaymentDate: null,
      terminationDate: manualPremiumExpiry(paymentDay, false).toISOString(),
      canDowngrade: false,
    });
  });

  it('a billed Premium shows its next payment date', async () => {
    const { cookie } = await signedInAs(t, {
      type: 'Premium',
      subscriptionId: 'DEMO-SUB',
      annualPlan: false,
      paymentDay: new Date(Date.now() - 10 * day),
    });
    const membership = await membershipOf(cookie);
    expect(membership.isManual).toBe(false);
    expect(membership.nextPaymentDate).not.toBeNull();
    expect(membership.terminationDate).toBeNull();
  });
});

describe('the failed-payment mail', () => {
  it('tells a member whose first payment failed that the account stays Basic, not that it was changed', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const { subscriptionId } = await startSubscription(t, cookie);
    await pressCheckout(t, subscriptionId, 'fail');
    const [text] = await mailTextsTo(user.email);
    expect(text).toContain('Tu membresía sigue siendo Básica.');
    expect(text).not.toContain('cambiada a básica');
  });

  it('tells a paying member whose renewal failed that the membership was changed to Basic', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const subscriptionId = await subscribeAndApprove(t, cookie);
    await pressCheckout(t, subscriptionId, 'renew-fail');
    const texts = await mailTextsTo(user.email);
    expect(
      texts.some((text) =>
        text.includes('No se pudo realizar el pago de tu suscripción, tu membresía ha sido cambiada a básica.'),
      ),
    ).toBe(true);
  });
});

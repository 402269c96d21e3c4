import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMercadoPagoFake, type MercadoPagoFake } from './simulated-mercadopago.ts';
import { createMercadoPagoProvider } from './mercadopago-provider.ts';
import { mercadoPagoSubscriptions } from './mercadopago-subscriptions.ts';
import { ProviderError } from './payment-provider.ts';

let fake: MercadoPagoFake;
const accessToken = 'TEST-0000-ficha';
const webhookSecret = 'secreto-de-notificaciones';

beforeAll(async () => {
  fake = await startMercadoPagoFake({ accessToken, webhookSecret });
});
afterAll(async () => {
  await fake.close();
});

const mp = () => createMercadoPagoProvider({ apiUrl: fake.url, accessToken, webhookSecret, backoffMs: 5 });
let count = 0;
async function preapproval(authorized = true) {
  const created = await mp().createPreapproval({
    reason: 'CxVet Premium mensual',
    amountCents: 19_900,
    frequencyMonths: 1,
    payerEmail: 'socia@example.com',
    externalReference: `usuario-1:intento-${++count}`,
    backUrl: 'https://cxvet.example/perfil',
    idempotencyKey: `suscripciones-${count}`,
  });
  if (authorized) fake.authorize(created.id);
  return created.id;
}
const puts = (id: string) => fake.requests.filter((each) => each.method === 'PUT' && each.url.includes(id));

describe('a card subscription in pesos as membership handles it', () => {
  it('reads a pending preapproval as waiting for approval, with no next charge', async () => {
    const id = await preapproval(false);
    expect(await mercadoPagoSubscriptions(mp()).getSubscription(id)).toEqual({
      status: 'APPROVAL_PENDING',
      nextBillingTime: null,
    });
  });

  it('reads an authorized one as active, with the next charge date Mercado Pago reports', async () => {
    const id = await preapproval();
    const read = await mercadoPagoSubscriptions(mp()).getSubscription(id);
    expect(read?.status).toBe('ACTIVE');
    expect(read?.nextBillingTime?.toISOString()).toBe(fake.preapprovals.get(id)!.next_payment_date);
  });

  it('answers null for an id Mercado Pago does not know', async () => {
    expect(await mercadoPagoSubscriptions(mp()).getSubscription('2c9380849999999999')).toBeNull();
  });

  it('pauses, authorizes again and pauses once more: each change is a change, not a repeat of the first', async () => {
    const id = await preapproval();
    const subscriptions = mercadoPagoSubscriptions(mp());
    await subscriptions.suspendSubscription(id, 'Cambio a membresía básica');
    expect(fake.preapprovals.get(id)!.status).toBe('paused');
    expect(await subscriptions.getSubscription(id)).toEqual({ status: 'SUSPENDED', nextBillingTime: null });
    await subscriptions.activateSubscription(id, 'Reactivación de Premium');
    expect(fake.preapprovals.get(id)!.status).toBe('authorized');
    await subscriptions.suspendSubscription(id, 'Cambio a membresía básica');
    expect(fake.preapprovals.get(id)!.status).toBe('paused');
    const sent = puts(id);
    expect(sent.map((each) => each.body)).toEqual([
      { status: 'paused' },
      { status: 'authorized' },
      { status: 'paused' },
    ]);
    // every write carries a key, and no two changes share one
    const keys = sent.map((each) => each.headers['x-idempotency-key']);
    expect(keys.every(Boolean)).toBe(true);
    expect(new Set(keys).size).toBe(3);
  });

  it('cancels for good: a second cancel is answered, a resume of a cancelled one is refused', async () => {
    const id = await preapproval();
    const subscriptions = mercadoPagoSubscriptions(mp());
    await subscriptions.cancelSubscription(id, 'Cuenta eliminada');
    await subscriptions.cancelSubscription(id, 'Cuenta eliminada');
    expect(await subscriptions.getSubscription(id)).toEqual({ status: 'CANCELLED', nextBillingTime: null });
    await expect(subscriptions.activateSubscription(id, 'Reactivación de Premium')).rejects.toBeInstanceOf(
      ProviderError,
    );
    await expect(subscriptions.suspendSubscription(id, 'Cambio a membresía básica')).rejects.toBeInstanceOf(
      ProviderError,
    );
    expect(fake.preapprovals.get(id)!.status).toBe('cancelled');
  });

  it('refuses to authorize again a preapproval that was never paused', async () => {
    const id = await preapproval(false);
    await expect(mercadoPagoSubscriptions(mp()).activateSubscription(id, 'x')).rejects.toBeInstanceOf(ProviderError);
    expect(fake.preapprovals.get(id)!.status).toBe('pending');
  });
});

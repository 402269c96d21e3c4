import { createHmac } from 'node:crypto';
import { testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { signSimulatedWebhook, type SimulatedAction } from '#server/services/payments/simulated-records.ts';

/** The simulated provider of a test app (the default PAYMENTS_PROVIDER). */
export function simulator(t: TestApp) {
  const provider = t.app.services.simulatedProvider;
  if (!provider) throw new Error('the test app has no simulated provider');
  return provider;
}

/** Starts a subscription as the signed-in member; returns the provider's id and approval URL. */
export async function startSubscription(
  t: TestApp,
  cookie: string,
  plan: 'monthly' | 'annual' = 'monthly',
  returnTo: 'signup' | 'profile' = 'signup',
) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/payments/subscriptions',
    headers: { cookie, origin: testPublicUrl },
    payload: { plan, returnTo },
  });
  if (response.statusCode !== 200) throw new Error(`start subscription: ${response.statusCode} ${response.body}`);
  return response.json() as { subscriptionId: string; approvalUrl: string };
}

/** Waits until every webhook sent so far is delivered and every job it queued has run. */
export async function settle(t: TestApp) {
  await simulator(t).settled();
  await t.app.services.jobs.runDue();
}

/** Presses a button of the simulated checkout page, as the browser would, and waits for the webhooks to be applied. */
export async function pressCheckout(
  t: TestApp,
  subscriptionId: string,
  action: SimulatedAction,
  kind: 'suscripcion' | 'orden' = 'suscripcion',
) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/pago-simulado/${kind}/${subscriptionId}/${action}`,
    headers: { origin: testPublicUrl, 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
  await settle(t);
  return response;
}

/** Subscribes and approves: the member ends Premium through the provider's webhooks. */
export async function subscribeAndApprove(t: TestApp, cookie: string, plan: 'monthly' | 'annual' = 'monthly') {
  const { subscriptionId } = await startSubscription(t, cookie, plan);
  await pressCheckout(t, subscriptionId, 'approve');
  return subscriptionId;
}

/** The webhook secret the test app's simulated provider signs with. */
export function simulatedSecret(t: TestApp) {
  return createHmac('sha256', t.config.sessionSecret).update('simulado-webhooks').digest('hex');
}

/** Posts a webhook as the provider would; the job it queues runs on the next settle(). */
export function postWebhook(t: TestApp, rawBody: string, headers: Record<string, string>) {
  return t.app.inject({ method: 'POST', url: '/api/payments/webhooks/simulado', headers, payload: rawBody });
}

/** Posts a webhook and waits for it to be applied. */
export async function deliverWebhook(t: TestApp, rawBody: string, headers: Record<string, string>) {
  const response = await postWebhook(t, rawBody, headers);
  await t.app.services.jobs.runDue();
  return response;
}

export function signedHeaders(t: TestApp, rawBody: string) {
  return {
    'content-type': 'application/json',
    'x-simulado-signature': signSimulatedWebhook(simulatedSecret(t), rawBody),
  };
}

/** Holds the simulated provider's webhooks instead of delivering them, to replay them at will. */
export function captureWebhooks(t: TestApp) {
  const captured: { rawBody: string; headers: Record<string, string>; type: string }[] = [];
  simulator(t).setTransport(async (rawBody, headers) => {
    captured.push({ rawBody, headers, type: (JSON.parse(rawBody) as { event_type: string }).event_type });
  });
  return {
    captured,
    restore() {
      simulator(t).setTransport(async (rawBody, headers) => {
        await postWebhook(t, rawBody, headers);
      });
    },
  };
}

import type { TestApp } from '#server/testing/test-app.ts';
import type { SignedNotification } from '#server/services/payments/simulated-mercadopago-controls.ts';

/** Posts a notification as Mercado Pago does (data.id and type in the query) and runs the jobs it queued. */
export async function deliverMercadoPago(t: TestApp, hook: SignedNotification) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/payments/webhooks/mercadopago?${new URLSearchParams(hook.query).toString()}`,
    headers: hook.headers,
    payload: hook.rawBody,
  });
  await t.app.services.jobs.runDue();
  return response;
}

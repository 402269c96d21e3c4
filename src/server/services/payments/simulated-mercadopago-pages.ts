import type { FastifyInstance, FastifyReply } from 'fastify';
import type { fakeControls, SignedNotification } from './simulated-mercadopago-controls.ts';
import type { FakeState } from './simulated-mercadopago-state.ts';

/** Pages a browser opens at Mercado Pago (no access token): the hosted checkouts and the voucher. */
export const isHostedPage = (url: string) =>
  url.startsWith('/subscriptions/checkout') || url.startsWith('/checkout/v1/') || url.startsWith('/voucher/');

/** The hosted pages' own path prefix: '' on a port of their own, '/simulado/mercadopago' inside the demo's site. */
const basePath = (state: FakeState) => (state.url ? new URL(state.url).pathname.replace(/\/$/, '') : '');

const escape = (value: unknown) => String(value).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
const pesos = (amount: number) => `$${amount.toFixed(2)} MXN`;

function page(reply: FastifyReply, title: string, body: string, status = 200) {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
        `<title>${escape(title)}</title></head><body><h1>${escape(title)}</h1>${body}</body></html>`,
    );
}

/** A form that posts `fields` and the payer's choice to `action`, as the hosted checkout's buttons do. */
function choices(action: string, fields: Record<string, string>, buttons: [string, string][]) {
  const hidden = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('');
  const submit = buttons
    .map(([value, label]) => `<button type="submit" name="outcome" value="${escape(value)}">${escape(label)}</button>`)
    .join(' ');
  return `<form method="post" action="${escape(action)}">${hidden}${submit}</form>`;
}

/**
 * What the payer sees at Mercado Pago in the tests: a preapproval's init_point (authorize the card, and back
 * to back_url; the reference does not say what back_url receives, so the fake adds ?preapproval_id= and our
 * server must not need it), a Checkout Pro preference's init_point (pay by card, and back to back_urls.success
 * or .failure with payment_id, status, external_reference and preference_id, the return parameters Mercado
 * Pago documents for Checkout Pro) and an OXXO voucher or SPEI instructions.
 */
export function registerHostedPages(
  app: FastifyInstance,
  state: FakeState,
  controls: Pick<
    ReturnType<typeof fakeControls>,
    'authorize' | 'payPreference' | 'approve' | 'expire' | 'notification'
  >,
  /** The demo's: the voucher page can pay or expire it, and the notification reaches CxVet through this. */
  deliver?: (hook: SignedNotification) => Promise<void>,
) {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.get('/subscriptions/checkout', async (request, reply) => {
    const id = String((request.query as Record<string, unknown>).preapproval_id ?? '');
    const pre = state.preapprovals.get(id);
    if (!pre || pre.status !== 'pending') return page(reply, 'Suscripción no disponible', '', 404);
    const every = `cada ${pre.auto_recurring.frequency} ${pre.auto_recurring.frequency_type === 'months' ? 'mes(es)' : 'día(s)'}`;
    return page(
      reply,
      'Mercado Pago (prueba): suscripción',
      `<p>${escape(pre.reason)}</p><p>${pesos(pre.auto_recurring.transaction_amount)} ${every}</p>` +
        choices(`${basePath(state)}/subscriptions/checkout/authorize`, { preapproval_id: id }, [
          ['approved', 'Suscribirme con tarjeta'],
          ['rejected', 'Tarjeta rechazada'],
        ]),
    );
  });

  app.post('/subscriptions/checkout/authorize', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, string>;
    const pre = state.preapprovals.get(body.preapproval_id ?? '');
    if (!pre || pre.status !== 'pending') return page(reply, 'Suscripción no disponible', '', 404);
    controls.authorize(pre.id, body.outcome === 'rejected' ? 'rejected' : 'approved');
    const back = new URL(pre.back_url);
    back.searchParams.set('preapproval_id', pre.id);
    return reply.redirect(back.toString(), 302);
  });

  app.get('/checkout/v1/redirect', async (request, reply) => {
    const id = String((request.query as Record<string, unknown>).pref_id ?? '');
    const preference = state.preferences.get(id);
    if (!preference) return page(reply, 'Pago no disponible', '', 404);
    const item = (preference.body.items as { title: string; unit_price: number }[])[0]!;
    return page(
      reply,
      'Mercado Pago (prueba): pago con tarjeta',
      `<p>${escape(item.title)}</p><p>${pesos(item.unit_price)}</p>` +
        choices(`${basePath(state)}/checkout/v1/pay`, { pref_id: id }, [
          ['approved', 'Pagar con tarjeta'],
          ['rejected', 'Tarjeta rechazada'],
        ]),
    );
  });

  app.post('/checkout/v1/pay', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, string>;
    const preference = state.preferences.get(body.pref_id ?? '');
    if (!preference) return page(reply, 'Pago no disponible', '', 404);
    const until = preference.body.expires === true ? Date.parse(String(preference.body.expiration_date_to)) : NaN;
    if (until < Date.now()) return page(reply, 'Este enlace de pago venció', '', 410);
    const outcome = body.outcome === 'rejected' ? 'rejected' : 'approved';
    const paymentId = controls.payPreference(preference.id, outcome);
    const backUrls = (preference.body.back_urls ?? {}) as Record<string, string | undefined>;
    const target = outcome === 'approved' ? backUrls.success : (backUrls.failure ?? backUrls.success);
    if (!target) return page(reply, outcome === 'approved' ? 'Pago aprobado' : 'Pago rechazado', '');
    const back = new URL(target);
    back.searchParams.set('payment_id', paymentId);
    back.searchParams.set('status', outcome);
    back.searchParams.set('external_reference', String(preference.body.external_reference ?? ''));
    back.searchParams.set('preference_id', preference.id);
    return reply.redirect(back.toString(), 302);
  });

  app.get('/voucher/:id', async (request, reply) => {
    const payment = state.payments.get((request.params as { id: string }).id);
    if (!payment || (payment.payment_method_id !== 'oxxo' && payment.payment_method_id !== 'clabe'))
      return page(reply, 'Ficha no disponible', '', 404);
    const title = payment.payment_method_id === 'oxxo' ? 'Ficha de pago en OXXO' : 'Transferencia SPEI';
    const demo =
      deliver && payment.status === 'pending'
        ? `<p>Pagos de prueba: nadie paga dinero real. Simula lo que haría Mercado Pago:</p>` +
          choices(`${basePath(state)}/voucher/${encodeURIComponent(payment.id)}/simular`, {}, [
            ['approved', payment.payment_method_id === 'oxxo' ? 'Simular pago en OXXO' : 'Simular transferencia'],
            ['expired', 'Dejar vencer'],
          ])
        : '';
    return page(
      reply,
      title,
      `<p>${escape(payment.description)}</p><p>${pesos(payment.transaction_amount)}</p>` +
        `<p>Referencia: ${escape(payment.id)}</p><p>Vence: ${escape(payment.date_of_expiration ?? '')}</p>` +
        `<p>Estado: ${escape(payment.status)}</p>${demo}`,
    );
  });

  if (deliver) {
    // the demo only: the money arrives (or the deadline passes) and Mercado Pago notifies CxVet, as it would
    app.post('/voucher/:id/simular', async (request, reply) => {
      const payment = state.payments.get((request.params as { id: string }).id);
      if (!payment || payment.status !== 'pending') return page(reply, 'Ficha no disponible', '', 404);
      const outcome = (request.body as Record<string, string> | undefined)?.outcome;
      if (outcome === 'expired') controls.expire(payment.id);
      else controls.approve(payment.id);
      await deliver(controls.notification('payment', payment.id));
      return reply.redirect(`${basePath(state)}/voucher/${encodeURIComponent(payment.id)}`, 303);
    });
  }
}

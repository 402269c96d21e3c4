import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '#server/services/mail-layout.ts';
import { ProviderError } from '#server/services/payments/payment-provider.ts';
import type { SimulatedProvider } from '#server/services/payments/simulated-provider.ts';
import type { SimulatedAction } from '#server/services/payments/simulated-records.ts';
import { AppError } from '#shared/errors.ts';
import { formatUsd } from '#shared/payments/payments.schemas.ts';
import { planPriceCents } from '#shared/payments/payments.rules.ts';

const kinds = { suscripcion: 'subscription', orden: 'order' } as const;
const statusLabels: Record<string, string> = {
  APPROVAL_PENDING: 'Pendiente de aprobación',
  APPROVED: 'Aprobada',
  ACTIVE: 'Activa',
  SUSPENDED: 'Suspendida',
  CANCELLED: 'Cancelada',
  EXPIRED: 'Expirada',
  CREATED: 'Pendiente de pago',
  COMPLETED: 'Pagada',
  VOIDED: 'Anulada',
};
const captureLabels: Record<string, string> = {
  COMPLETED: 'completado',
  PENDING: 'pendiente',
  DECLINED: 'rechazado',
  FAILED: 'fallido',
  REFUNDED: 'reembolsado',
  PARTIALLY_REFUNDED: 'reembolsado en parte',
};
const actions: readonly SimulatedAction[] = [
  'approve',
  'approve-pending',
  'cancel',
  'fail',
  'renew',
  'renew-fail',
  'refund',
  'provider-cancel',
  'capture-complete',
  'capture-deny',
];

function page(title: string, body: string): string {
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,Arial,sans-serif;background:#f1f3f5;color:#1a1b1e;margin:0;padding:12px}main{max-width:480px;margin:0 auto;background:#fff;border-radius:8px;padding:16px;box-shadow:0 1px 4px #0002}dd{margin:0;overflow-wrap:anywhere;min-width:0}h1{font-size:1.4rem;margin-top:0}form{display:inline}button{font:inherit;padding:10px 16px;margin:6px 6px 0 0;border-radius:6px;border:1px solid #495057;background:#fff;color:#1a1b1e;cursor:pointer}button.primary{background:#0b5d8f;border-color:#0b5d8f;color:#fff}dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px}dt{font-weight:600}</style></head>
<body><main>${body}</main></body></html>`;
}

/** The simulated provider's own checkout page, standing in for PayPal's while offline. */
export function registerSimulatedCheckoutRoutes(app: FastifyInstance, deps: { provider: SimulatedProvider }) {
  const { provider } = deps;

  void app.register(async (scope) => {
    // plain HTML forms post url-encoded bodies; the action is in the URL, so the body is ignored
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) =>
      done(null, {}),
    );

    scope.get('/pago-simulado/:kind/:id', async (request, reply) => {
      const { kind, id } = request.params as { kind: string; id: string };
      const resolved = kinds[kind as keyof typeof kinds];
      const record = resolved ? await provider.describe(resolved, id) : null;
      if (!resolved || !record) throw new AppError('NOT_FOUND');
      reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      const button = (action: SimulatedAction, label: string, primary = false) =>
        `<form method="post" action="/pago-simulado/${kind}/${encodeURIComponent(id)}/${action}"><button type="submit"${primary ? ' class="primary"' : ''}>${escapeHtml(label)}</button></form>`;
      if (record.kind === 'order') {
        const captureText = record.captureStatus
          ? ` · cobro ${captureLabels[record.captureStatus] ?? record.captureStatus}`
          : '';
        const orderControls =
          record.status === 'CREATED'
            ? button('approve', 'Aprobar pago', true) +
              button('approve-pending', 'Aprobar con pago pendiente') +
              button('fail', 'Rechazar pago')
            : record.captureStatus === 'PENDING'
              ? button('capture-complete', 'Confirmar el cobro pendiente') +
                button('capture-deny', 'Rechazar el cobro pendiente')
              : record.captureStatus === 'COMPLETED'
                ? button('refund', 'Reembolsar')
                : '';
        return page(
          'Pago simulado',
          `<h1>Pago simulado</h1><p>Proveedor de pagos de prueba: no se cobra dinero real.</p><dl><dt>Orden</dt><dd>${escapeHtml(id)}</dd><dt>Importe</dt><dd>${escapeHtml(formatUsd(record.amountCents))}</dd><dt>Estado</dt><dd>${escapeHtml((statusLabels[record.status] ?? record.status) + captureText)}</dd></dl>
<div>${orderControls}${button('cancel', 'Cancelar y volver')}</div>`,
        );
      }
      const plan = record.plan;
      const planText = plan === 'annual' ? 'Premium anual' : 'Premium mensual';
      const controls =
        record.status === 'APPROVAL_PENDING'
          ? button('approve', 'Aprobar suscripción', true) +
            button('fail', 'Simular pago rechazado') +
            button('cancel', 'Cancelar y volver')
          : record.status === 'ACTIVE'
            ? button('renew', 'Simular cobro de renovación') +
              button('renew-fail', 'Simular cobro fallido') +
              button('refund', 'Reembolsar el último cobro') +
              button('provider-cancel', 'Cancelar en el proveedor')
            : record.status === 'SUSPENDED'
              ? button('provider-cancel', 'Cancelar en el proveedor')
              : '';
      return page(
        'Pago simulado',
        `<h1>Pago simulado</h1><p>Proveedor de pagos de prueba: no se cobra dinero real.</p><dl><dt>Suscripción</dt><dd>${escapeHtml(id)}</dd><dt>Plan</dt><dd>${escapeHtml(planText)} · ${escapeHtml(formatUsd(planPriceCents[plan]))}</dd><dt>Estado</dt><dd>${escapeHtml(statusLabels[record.status] ?? record.status)}</dd></dl>
<div>${controls}</div>`,
      );
    });

    scope.post('/pago-simulado/:kind/:id/:action', async (request, reply) => {
      const { kind, id, action } = request.params as { kind: string; id: string; action: string };
      const resolved = kinds[kind as keyof typeof kinds];
      if (!resolved || !actions.includes(action as SimulatedAction)) throw new AppError('NOT_FOUND');
      try {
        return reply.redirect(await provider.act(resolved, id, action as SimulatedAction), 303);
      } catch (error) {
        if (error instanceof ProviderError) throw new AppError('NOT_FOUND');
        throw error;
      }
    });
  });
}

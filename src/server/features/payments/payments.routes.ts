import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '#server/plugins/authorization.ts';
import { AppError } from '#shared/errors.ts';
import { planPriceCents } from '#shared/payments/payments.rules.ts';
import {
  confirmSubscriptionResponseSchema,
  paymentHistoryResponseSchema,
  paymentsConfigSchema,
  startSubscriptionResponseSchema,
  startSubscriptionSchema,
} from '#shared/payments/payments.schemas.ts';
import type { JobRunner } from '#server/services/jobs.ts';
import type { PaymentsService } from './payments.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

/** Webhook deliveries accepted per IP and minute. */
export const webhookLimitPerMinute = 600;

export function registerPaymentRoutes(
  app: FastifyInstance,
  deps: {
    payments: PaymentsService;
    jobs: Pick<JobRunner, 'runDue'>;
    /** Mercado Pago, when it is configured: payments in pesos. */
    pesos?: { planPrices(): Promise<{ monthly: number | null; annual: number | null }> } | null;
  },
) {
  const { payments, jobs } = deps;
  const { provider } = payments;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/payments/config', { schema: { response: { 200: paymentsConfigSchema } } }, async () => ({
    provider: provider.name,
    providerName: provider.displayName,
    prices: planPriceCents,
    pesosMethods: deps.pesos ? ['oxxo' as const, 'clabe' as const] : [],
    pesosPlans: deps.pesos ? await deps.pesos.planPrices() : { monthly: null, annual: null },
  }));

  api.post(
    '/api/payments/subscriptions',
    {
      schema: { body: startSubscriptionSchema, response: { 200: startSubscriptionResponseSchema } },
      config: { rateLimit: { max: 20, timeWindow: '10 minutes' } },
    },
    async (request) => payments.startSubscription(await requireUser(request), request.body),
  );

  api.post(
    '/api/payments/subscriptions/:id/confirm',
    {
      schema: {
        params: z.object({ id: z.string().min(1).max(100) }),
        response: { 200: confirmSubscriptionResponseSchema },
      },
    },
    async (request) => payments.confirmSubscription(await requireUser(request), request.params.id),
  );

  api.get(
    '/api/profile/payments',
    { schema: { response: { 200: paymentHistoryResponseSchema } } },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('cache-control', 'no-store');
      return { payments: await payments.history(user.id) };
    },
  );

  // Webhooks need the exact bytes that were signed, so this scope keeps the raw body.
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: 256 * 1024 },
      (request, body, done) => {
        (request as FastifyRequest).rawBody = body as string;
        try {
          done(null, JSON.parse(body as string));
        } catch {
          done(null, {});
        }
      },
    );
    scope.post(
      '/api/payments/webhooks/:provider',
      // per IP, far above PayPal's bursts: only a flood of forged deliveries (each one a verify call) is stopped
      { config: { rateLimit: { max: webhookLimitPerMinute, timeWindow: '1 minute' } } },
      async (request) => {
        const { provider: name } = request.params as { provider: string };
        if (name !== provider.name) throw new AppError('NOT_FOUND');
        const transmission = request.headers['paypal-transmission-id'];
        const transmissionId = typeof transmission === 'string' && transmission ? transmission.slice(0, 200) : '';
        // a replay of a delivery we stored: answered as PayPal expects, without a verify call
        if (transmissionId && (await payments.isKnownTransmission(transmissionId)))
          return { received: true, outcome: 'duplicate' as const };
        const event = await provider.verifyWebhook({ headers: request.headers, rawBody: request.rawBody ?? '' });
        if (!event) throw new AppError('WEBHOOK_SIGNATURE_INVALID');
        // stored and queued in one transaction; the job applies it (now, or after a crash, on the next poll)
        const outcome = await payments.receiveWebhook(event, transmissionId);
        if (outcome === 'stored') {
          setImmediate(
            () =>
              void jobs
                .runDue()
                .catch((error: unknown) => request.log.error({ err: error }, 'payments job pass failed')),
          );
        }
        return { received: true, outcome };
      },
    );
  });
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '#server/plugins/authorization.ts';
import { AppError } from '#shared/errors.ts';
import {
  cardCheckoutSchema,
  cardCheckoutStatusSchema,
  type CardCheckoutStatus,
  confirmCardCheckoutSchema,
  notificationResponseSchema,
  offlinePaymentSchema,
  startOfflinePaymentSchema,
} from '#shared/payments/mercadopago.schemas.ts';
import type { JobRunner } from '#server/services/jobs.ts';
import {
  confirmSubscriptionResponseSchema,
  startSubscriptionResponseSchema,
  startSubscriptionSchema,
} from '#shared/payments/payments.schemas.ts';
import type { MercadoPagoPaymentsService } from './mercadopago-payments.service.ts';
import type { MercadoPagoCardSubscriptions } from './mercadopago-card-subscriptions.ts';
import type { PremiumPassService } from './premium-pass.service.ts';
import { webhookLimitPerMinute } from './payments.routes.ts';

const pendingListSchema = z.object({
  payments: z.array(
    z.object({
      paymentId: z.string(),
      description: z.string(),
      amountCents: z.number().int(),
      currency: z.literal('MXN'),
      createdAt: z.string(),
    }),
  ),
});

/** Mercado Pago's notifications and the member's pending payments in pesos. */
export function registerMercadoPagoRoutes(
  app: FastifyInstance,
  deps: {
    mercadoPago: MercadoPagoPaymentsService;
    cardSubscriptions: MercadoPagoCardSubscriptions;
    premiumPass: PremiumPassService;
    jobs: Pick<JobRunner, 'runDue'>;
  },
) {
  const { mercadoPago, cardSubscriptions, premiumPass, jobs } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  // a card subscription in pesos: the member authorizes the card on Mercado Pago's page (init_point)
  api.post(
    '/api/payments/mercadopago/subscriptions',
    {
      schema: { body: startSubscriptionSchema, response: { 200: startSubscriptionResponseSchema } },
      config: { rateLimit: { max: 20, timeWindow: '10 minutes' } },
    },
    async (request) => cardSubscriptions.startSubscription(await requireUser(request), request.body),
  );

  // 'Premium anual (pago único)' at OXXO or by SPEI: our page shows the voucher or the CLABE
  api.post(
    '/api/payments/mercadopago/premium-pass',
    {
      schema: { body: startOfflinePaymentSchema, response: { 200: offlinePaymentSchema } },
      config: { rateLimit: { max: 20, timeWindow: '10 minutes' } },
    },
    async (request) => premiumPass.start(await requireUser(request), request.body.method),
  );

  // the pass by card on Checkout Pro's page
  api.post(
    '/api/payments/mercadopago/premium-pass/card',
    {
      schema: { response: { 200: cardCheckoutSchema } },
      config: { rateLimit: { max: 20, timeWindow: '10 minutes' } },
    },
    async (request) => premiumPass.startCard(await requireUser(request)),
  );

  // back from Checkout Pro: the payment id in the URL is read back and applied only if it is this member's
  api.post(
    '/api/payments/mercadopago/checkout/confirm',
    {
      schema: { body: confirmCardCheckoutSchema, response: { 200: cardCheckoutStatusSchema } },
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
    },
    async (request) => {
      const status = await mercadoPago.confirmCheckout((await requireUser(request)).id, request.body.paymentId);
      return { status: status === 'COMPLETED' || status === 'PENDING' ? (status as CardCheckoutStatus) : 'DENIED' };
    },
  );

  // back from Mercado Pago: the member's newest checkout is read back, nothing is taken from the URL
  api.post(
    '/api/payments/mercadopago/subscriptions/confirm',
    {
      schema: { response: { 200: confirmSubscriptionResponseSchema } },
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
    },
    async (request) => cardSubscriptions.confirmReturn(await requireUser(request)),
  );

  api.get(
    '/api/profile/payments/pending',
    { schema: { response: { 200: pendingListSchema } } },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('cache-control', 'no-store');
      const rows = await mercadoPago.pendingOf(user.id);
      return {
        payments: rows.map((row) => ({
          paymentId: row.paymentId,
          description: row.description,
          amountCents: row.amountCents,
          currency: 'MXN' as const,
          createdAt: row.createdAt.toISOString(),
        })),
      };
    },
  );

  // the signature covers the query's data.id and two headers, not the body; the body is kept to be stored
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (request, body, done) => {
        (request as FastifyRequest).rawBody = body as string;
        done(null, {});
      },
    );
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/payments/webhooks/mercadopago',
      {
        schema: { response: { 200: notificationResponseSchema } },
        config: { rateLimit: { max: webhookLimitPerMinute, timeWindow: '1 minute' } },
      },
      async (request) => {
        const notification = mercadoPago.provider.verifyNotification({
          headers: request.headers,
          query: request.query as Record<string, unknown>,
          rawBody: request.rawBody ?? '',
        });
        if (!notification) throw new AppError('WEBHOOK_SIGNATURE_INVALID');
        // stored with its job in one transaction; the job reads the resource back and only then acts
        const outcome = await mercadoPago.receiveNotification(notification);
        if (outcome === 'stored') {
          setImmediate(
            () =>
              void jobs
                .runDue()
                .catch((error: unknown) => request.log.error({ err: error }, 'payments job pass failed')),
          );
        }
        return { received: true as const, outcome };
      },
    );
  });
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '#server/plugins/authorization.ts';
import { isAdmin } from '#shared/accounts/accounts.rules.ts';
import type { JobRunner } from '#server/services/jobs.ts';
import {
  adminFacturaSchema,
  cancelFacturaSchema,
  fiscalDataSchema,
  myFacturaSchema,
  myFacturasSchema,
} from '#shared/facturas/fiscal.schemas.ts';
import { webhookLimitPerMinute } from '#server/features/payments/payments.routes.ts';
import type { FacturasService } from './facturas.service.ts';

const paymentParams = z.object({ paymentId: z.uuid() });
const downloadParams = paymentParams.extend({ format: z.enum(['pdf', 'xml']) });
const creditNoteParams = downloadParams.extend({ creditNoteId: z.uuid() });
const contentTypes = { pdf: 'application/pdf', xml: 'application/xml' } as const;
/** Facturapi's webhook event (its SDK's types/webhook.ts ApiEvent): only the type and the object's id are read. */
const facturapiEventSchema = z.looseObject({
  type: z.string(),
  data: z.looseObject({ object: z.looseObject({ id: z.string().max(100) }) }),
});
/** The events about an invoice's state; the others (receipts, customers) change nothing of ours. */
const invoiceEvents = new Set(['invoice.cancellation_status_updated', 'invoice.status_updated']);

async function who(request: FastifyRequest) {
  const user = await requireUser(request);
  return { userId: user.id, admin: isAdmin(user) };
}

/** The member's facturas: their state, 'Solicitar factura', and the PDF and XML through our server. */
export function registerFacturasRoutes(
  app: FastifyInstance,
  deps: { facturas: FacturasService; jobs: Pick<JobRunner, 'runDue'> },
) {
  const { facturas, jobs } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/facturas', { schema: { response: { 200: myFacturasSchema } } }, async (request) =>
    facturas.mine((await requireUser(request)).id),
  );

  api.post(
    '/api/facturas/:paymentId',
    {
      schema: { params: paymentParams, body: fiscalDataSchema, response: { 200: myFacturaSchema } },
      config: { rateLimit: { max: 20, timeWindow: '10 minutes' } },
    },
    async (request) => {
      const caller = await who(request);
      // the member asks for their own payment's factura; an Admin uses the console's route
      await facturas.request(request.params.paymentId, request.body, { ...caller, admin: false });
      await jobs.runDue();
      const mine = await facturas.mine(caller.userId);
      return mine.payments.find((each) => each.paymentId === request.params.paymentId)!;
    },
  );

  // Facturapi's notification: the body is only a hint, the job reads the invoice from Facturapi (decision 052)
  api.post(
    '/api/payments/webhooks/facturapi',
    {
      schema: { body: facturapiEventSchema },
      config: { rateLimit: { max: webhookLimitPerMinute, timeWindow: '1 minute' } },
    },
    async (request) => {
      // an invoice of ours queued a job: started, not awaited (an anonymous caller neither waits for the queue nor
      // learns how its jobs went); an event about anything else starts nothing
      if (invoiceEvents.has(request.body.type) && (await facturas.invoiceNotified(request.body.data.object.id)))
        void jobs.runDue().catch((error: unknown) => request.log.error({ err: error }, 'jobs after a notification'));
      return { received: true };
    },
  );

  api.get(
    '/api/facturas/:paymentId/:format',
    { schema: { params: downloadParams }, config: { rateLimit: { max: 60, timeWindow: '1 minute' } } },
    async (request, reply) => {
      const { paymentId, format } = request.params;
      const file = await facturas.download(paymentId, format, await who(request));
      return reply
        .header('content-type', contentTypes[format])
        .header('content-disposition', `attachment; filename="factura-${paymentId}.${format}"`)
        .header('cache-control', 'private, no-store')
        .send(file);
    },
  );

  api.get(
    '/api/facturas/:paymentId/credit-notes/:creditNoteId/:format',
    { schema: { params: creditNoteParams }, config: { rateLimit: { max: 60, timeWindow: '1 minute' } } },
    async (request, reply) => {
      const { paymentId, creditNoteId, format } = request.params;
      const file = await facturas.downloadCreditNote(paymentId, creditNoteId, format, await who(request));
      return reply
        .header('content-type', contentTypes[format])
        .header('content-disposition', `attachment; filename="nota-de-credito-${creditNoteId}.${format}"`)
        .header('cache-control', 'private, no-store')
        .send(file);
    },
  );
}

/** The console's facturas (registered in the Admin scope): the list, a factura to any RFC, a cancellation. */
export function registerFacturasAdminRoutes(
  admin: FastifyInstance,
  deps: { facturas: FacturasService; jobs: Pick<JobRunner, 'runDue'> },
) {
  const { facturas, jobs } = deps;
  const api = admin.withTypeProvider<ZodTypeProvider>();
  api.get('/api/admin/facturas/global', async () => ({ invoices: await facturas.global.list() }));
  api.post('/api/admin/facturas/global', async () => {
    await facturas.queueGlobalInvoice();
    await jobs.runDue();
    return { invoices: await facturas.global.list() };
  });
  api.get(
    '/api/admin/facturas/global/:month/:format',
    { schema: { params: z.object({ month: z.string().regex(/^\d{4}-\d{2}$/), format: z.enum(['pdf', 'xml']) }) } },
    async (request, reply) => {
      const { month, format } = request.params;
      return reply
        .header('content-type', contentTypes[format])
        .header('content-disposition', `attachment; filename="factura-global-${month}.${format}"`)
        .header('cache-control', 'private, no-store')
        .send(await facturas.global.download(month, format));
    },
  );
  api.get('/api/admin/facturas', async () => ({ available: facturas.available, payments: await facturas.adminList() }));
  api.post(
    '/api/admin/facturas/:paymentId',
    { schema: { params: paymentParams, body: adminFacturaSchema } },
    async (request) => {
      const caller = await who(request);
      await facturas.request(request.params.paymentId, request.body, caller);
      await jobs.runDue();
      return (await facturas.adminList()).find((each) => each.paymentId === request.params.paymentId)!;
    },
  );
  api.post(
    '/api/admin/facturas/:paymentId/cancel',
    { schema: { params: paymentParams, body: cancelFacturaSchema } },
    async (request) => {
      await facturas.cancel(request.params.paymentId, request.body.motive);
      return (await facturas.adminList()).find((each) => each.paymentId === request.params.paymentId)!;
    },
  );
}

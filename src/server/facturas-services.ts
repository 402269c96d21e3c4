import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { Log } from './services/log.ts';
import type { JobRunner } from './services/jobs.ts';
import { createFacturapiClient } from './services/facturapi/facturapi-client.ts';
import { globalInvoiceJobKind } from './features/facturas/global-invoice.ts';
import { registerFacturasRoutes } from './features/facturas/facturas.routes.ts';
import { createFacturasService, facturaJobKinds, type FacturasService } from './features/facturas/facturas.service.ts';

/** Facturas through Facturapi when FACTURAPI_KEY is set; without it every payment says 'Facturación no disponible'. */
export function facturasServiceFor(input: {
  config: Config;
  db: Db;
  schedule: JobRunner['schedule'];
  log: Pick<Log, 'warn' | 'error'>;
}) {
  const client = input.config.facturapi ? createFacturapiClient({ ...input.config.facturapi, log: input.log }) : null;
  return createFacturasService({ db: input.db, client, schedule: input.schedule, log: input.log });
}

/** The facturas' jobs; each throws while Facturapi is unreachable, and the job runner retries it with backoff. */
export function facturaJobHandlers(get: () => FacturasService) {
  return {
    [facturaJobKinds.receipt]: async ({ paymentId }: { paymentId: string }) => get().createReceipt(paymentId),
    [facturaJobKinds.invoice]: async ({ paymentId }: { paymentId: string }) => get().issueRequested(paymentId),
    [globalInvoiceJobKind]: async () => get().global.run(),
    [facturaJobKinds.cancelRefunded]: async ({ paymentId }: { paymentId: string }) => get().cancelRefunded(paymentId),
    [facturaJobKinds.creditNote]: async ({ paymentId, refundedCents }: { paymentId: string; refundedCents: number }) =>
      get().issueCreditNote(paymentId, refundedCents),
    [facturaJobKinds.cancellationStatus]: async ({ paymentId }: { paymentId: string }) =>
      get().refreshCancellation(paymentId),
  };
}

/** The member's facturas routes. */
export function registerFacturas(app: FastifyInstance, deps: { facturas: FacturasService; jobs: JobRunner }) {
  registerFacturasRoutes(app, deps);
}

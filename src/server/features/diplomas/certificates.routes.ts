import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '#server/plugins/authorization.ts';
import { AppError } from '#shared/errors.ts';
import { revocationInstant } from '#shared/time-zone.ts';
import {
  adminCertificateListSchema,
  certificateCodeParamsSchema,
  certificateListSchema,
  certificateVerificationSchema,
  memberDiplomaParamsSchema,
  revokeCertificateInputSchema,
} from '#shared/diplomas/diplomas.schemas.ts';
import { registerCredentialRoutes } from '#server/features/credentials/credentials.routes.ts';
import type { CertificatesService } from './certificates.service.ts';

/** The public verification page's API (rate-limited per IP, never indexed) and the profile's list. */
export function registerCertificateRoutes(app: FastifyInstance, deps: { certificates: CertificatesService }) {
  const { certificates } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/certificates/:code',
    {
      schema: { params: certificateCodeParamsSchema, response: { 200: certificateVerificationSchema } },
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      onSend: async (_request, reply, payload) => {
        reply.header('x-robots-tag', 'noindex, nofollow');
        return payload;
      },
    },
    async (request) => certificates.verify(request.params.code),
  );
  registerCredentialRoutes(app, { credentials: certificates.credentials });

  api.get(
    '/api/profile/certificates',
    { schema: { response: { 200: certificateListSchema } } },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('cache-control', 'no-store');
      return { items: await certificates.listForUser(user.id) };
    },
  );
}

/** Registered inside the Admin scope only. */
export function registerCertificateAdminRoutes(admin: FastifyInstance, deps: { certificates: CertificatesService }) {
  const { certificates } = deps;
  const api = admin.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/admin/diplomas/:id/certificates',
    { schema: { params: memberDiplomaParamsSchema, response: { 200: adminCertificateListSchema } } },
    async (request) => ({
      items: await certificates.listForDiploma(request.params.id),
    }),
  );

  api.post(
    '/api/admin/certificates/:certificateId/revoke',
    {
      schema: {
        params: z.object({ certificateId: z.uuid() }),
        body: revokeCertificateInputSchema,
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
    },
    async (request) => {
      const { reason, revokedOn } = request.body;
      // the verification page prints the date in UTC (certificates.service.ts)
      const revokedAt = revokedOn ? revocationInstant(revokedOn, new Date(), 'UTC') : new Date();
      if (!revokedAt)
        throw new AppError('VALIDATION', { fields: { revokedOn: 'La fecha no puede ser posterior a hoy.' } });
      await certificates.revoke(request.params.certificateId, reason, revokedAt);
      request.log.warn({ certificateId: request.params.certificateId }, 'certificate revoked');
      return { ok: true as const };
    },
  );
}

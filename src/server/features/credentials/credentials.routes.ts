import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { certificateCodeParamsSchema } from '#shared/diplomas/diplomas.schemas.ts';
import type { CredentialsService } from './credentials.service.ts';

/** What makes a body worth checking at all: a credential's context, types and proof; anything else is a 400. */
const credentialBodySchema = z.looseObject({
  '@context': z.array(z.unknown()).min(1),
  type: z.array(z.string()).min(1),
  proof: z.looseObject({}),
});

const credentialCheckSchema = z.object({
  valid: z.boolean(),
  message: z.string(),
  revokedAt: z.string().optional(),
});

/**
 * The issuer's public side: its DID document, the status lists and the credentials themselves, readable by any
 * verifier (CORS open, nothing private in them); and our own check of a credential.
 */
export function registerCredentialRoutes(app: FastifyInstance, deps: { credentials: CredentialsService }) {
  const { credentials } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const limit = { rateLimit: { max: 30, timeWindow: '1 minute' } };

  api.get('/.well-known/did.json', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=300');
    return credentials.didDocument();
  });

  api.get(
    '/api/credentials/status/:list',
    { schema: { params: z.object({ list: z.coerce.number().int().min(0).max(999_999) }) } },
    async (request, reply) => {
      reply.header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=60');
      return credentials.statusList(request.params.list);
    },
  );

  api.get(
    '/api/certificates/:code/credential',
    { schema: { params: certificateCodeParamsSchema }, config: limit },
    async (request, reply) => {
      const credential = await credentials.forCode(request.params.code);
      reply
        .header('access-control-allow-origin', '*')
        .header('x-robots-tag', 'noindex, nofollow')
        .header('content-disposition', 'attachment; filename="credential.json"');
      return credential;
    },
  );

  api.get(
    '/api/certificates/:code/credential/check',
    { schema: { params: certificateCodeParamsSchema, response: { 200: credentialCheckSchema } }, config: limit },
    async (request) => credentials.check(await credentials.forCode(request.params.code)),
  );

  api.post(
    '/api/credentials/verify',
    { schema: { body: credentialBodySchema, response: { 200: credentialCheckSchema } }, config: limit },
    async (request) => credentials.check(request.body),
  );

  // the one-time job: certificates issued before credentials existed get theirs, in the background after start
  app.addHook('onReady', async () => {
    if (!credentials.canSign) return;
    void credentials
      .backfill()
      .then((signed) => signed > 0 && app.log.info({ signed }, 'credentials signed for earlier certificates'))
      .catch((error: unknown) => app.log.error({ err: error }, 'credentials for earlier certificates failed'));
  });
}

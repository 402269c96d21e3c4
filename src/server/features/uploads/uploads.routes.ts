import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { AppError } from '#shared/errors.ts';
import { messages } from '#shared/messages.ts';
import { uploadSizeLimits, uploadTargets } from '#shared/uploads/uploads.rules.ts';
import { discardUploadSchema, uploadQuerySchema, uploadResultSchema } from '#shared/uploads/uploads.schemas.ts';
import { okSchema } from '#shared/records.schemas.ts';
import type { UploadsService } from './uploads.service.ts';

/** Room for the multipart boundaries and headers around the file itself. */
const multipartOverhead = 64 * 1024;

/** Console uploads: one file per request, streamed to storage; registered in the Admin scope. */
export async function registerUploadRoutes(app: FastifyInstance, deps: { uploads: UploadsService }) {
  const { uploads } = deps;
  await app.register(async (scope) => {
    // multipart parsing only in this scope: no other route accepts files by accident
    await scope.register(multipart, { limits: { files: 1, fields: 0, parts: 1, fieldSize: 0 } });
    const routes = scope.withTypeProvider<ZodTypeProvider>();

    routes.post(
      '/api/admin/uploads',
      { schema: { querystring: uploadQuerySchema, response: { 200: uploadResultSchema } } },
      async (request) => {
        const { target, recordId } = request.query;
        const limit = Math.max(...uploadTargets[target].kinds.map((kind) => uploadSizeLimits[kind]));
        const declared = Number(request.headers['content-length'] ?? 0);
        if (declared > limit + multipartOverhead) throw new AppError('PAYLOAD_TOO_LARGE');
        if (!request.isMultipart()) throw new AppError('VALIDATION', { fields: { file: messages.requiredDot } });
        // one byte over the limit reaches the service, which refuses the file with 413
        const part = await request.file({ limits: { fileSize: limit + 1 } });
        if (!part) throw new AppError('VALIDATION', { fields: { file: messages.requiredDot } });
        return uploads.store({ target, recordId, fileName: part.filename, stream: part.file });
      },
    );

    routes.post(
      '/api/admin/uploads/discard',
      { schema: { body: discardUploadSchema, response: { 200: okSchema } } },
      async (request) => {
        await uploads.discard(request.body.key);
        return { ok: true as const };
      },
    );
  });
}

import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, type ErrorBody, type ErrorCode, type FieldErrors } from '#shared/errors.ts';
import { errorMessages } from '#shared/error-messages.ts';
import { isDatabaseUnavailable, retryAfterSeconds } from '#server/db/unavailable.ts';

export function errorBody(code: ErrorCode, fields?: FieldErrors): ErrorBody {
  const { message, title } = errorMessages[code];
  return { code, message, ...(title ? { title } : {}), ...(fields ? { fields } : {}) };
}

/**
 * The status of an error code, from the table, for an answer that is not thrown: an HTML page, or a body with more
 * than the error (readiness's checks). Everywhere else, throw AppError.
 */
export function withErrorStatus(reply: FastifyReply, code: ErrorCode): FastifyReply {
  return reply.status(errorMessages[code].status);
}

/** One place maps errors to `{ code, message, fields }`; clients never see a stack. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    // the database out of reach (a restart, a failover): the client comes back shortly, nothing is its fault
    if ((error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE') || isDatabaseUnavailable(error)) {
      if (!(error instanceof AppError)) request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).header('retry-after', String(retryAfterSeconds)).send(errorBody('SERVICE_UNAVAILABLE'));
    }
    if (error instanceof AppError) {
      return reply.status(errorMessages[error.code].status).send(errorBody(error.code, error.fields));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: FieldErrors = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
        fields[field] ??= issue.message ?? errorMessages.VALIDATION.message;
      }
      return reply.status(400).send(errorBody('VALIDATION', fields));
    }
    const status = error.statusCode ?? 500;
    if (status === 413 || error.code === 'FST_REQ_FILE_TOO_LARGE')
      return reply.status(413).send(errorBody('PAYLOAD_TOO_LARGE'));
    if (status === 429) return reply.status(429).send(errorBody('RATE_LIMITED'));
    if (status >= 400 && status < 500) {
      return reply.status(status).send(errorBody(status === 404 ? 'NOT_FOUND' : 'VALIDATION'));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody('INTERNAL'));
  });
}

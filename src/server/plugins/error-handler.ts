import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, type ErrorBody, type ErrorCode, type FieldErrors } from '#shared/errors.ts';
import { errorMessages } from '#shared/messages.ts';

const statusByCode: Partial<Record<ErrorCode, number>> = {
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  CAPTIONS_INVALID: 400,
  RANGE_NOT_SATISFIABLE: 416,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
  LOGIN_USER_NOT_FOUND: 404,
  LOGIN_WRONG_PASSWORD: 401,
  LOGIN_USER_DISABLED: 403,
  LOGIN_INVALID_EMAIL: 400,
  EMAIL_TAKEN: 409,
  RESET_CODE_INVALID: 400,
  VIEWING_TOKEN_REPLACED: 409,
  REAUTH_REQUIRED: 403,
  SIGNUP_USER_EXISTS: 409,
  SIGNUP_FAILED: 500,
  PROFILE_SAVE_FAILED: 500,
  SUBSCRIPTION_UNMAPPED_ERROR: 503,
  SUBSCRIPTION_CREATE_FAILED: 502,
  MEMBERSHIP_CHANGE_NOT_ALLOWED: 409,
  WEBHOOK_SIGNATURE_INVALID: 401,
  CLASSROOM_ACTIVE: 409,
  CLASSROOM_USERS_NOT_ALLOWED: 400,
  SUBSCRIPTION_CHECKOUT_IN_PROGRESS: 409,
  PAYMENT_DECLINED: 402,
  PAYMENT_PENDING: 409,
  DIPLOMA_EXAM_LOCKED: 409,
  DATA_EXPORT_EXPIRED: 410,
  ACCOUNT_DELETE_PROVIDER_REFUSED: 502,
};

export function errorBody(code: ErrorCode, fields?: FieldErrors): ErrorBody {
  const { message, title } = errorMessages[code];
  return { code, message, ...(title ? { title } : {}), ...(fields ? { fields } : {}) };
}

/** One place maps errors to `{ code, message, fields }`; clients never see a stack. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(statusByCode[error.code] ?? 400).send(errorBody(error.code, error.fields));
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
    if (status === 413 || error.code === 'FST_REQ_FILE_TOO_LARGE') return reply.status(413).send(errorBody('PAYLOAD_TOO_LARGE'));
    if (status === 429) return reply.status(429).send(errorBody('RATE_LIMITED'));
    if (status >= 400 && status < 500) {
      return reply.status(status).send(errorBody(status === 404 ? 'NOT_FOUND' : 'VALIDATION'));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody('INTERNAL'));
  });
}

/** The codes that say no more than their HTTP status: one per status in the error table. */
export const statusErrorCodes = [
  'VALIDATION',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'RANGE_NOT_SATISFIABLE',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
] as const;

/** Every error the API can answer with; the status and Spanish text of each live in error-messages.ts. */
export const errorCodes = [
  ...statusErrorCodes,
  'NESTING_TOO_DEEP',
  'PRECONDITION_FAILED',
  'LOGIN_USER_NOT_FOUND',
  'LOGIN_WRONG_PASSWORD',
  'LOGIN_USER_DISABLED',
  'LOGIN_INVALID_EMAIL',
  'EMAIL_TAKEN',
  'PASSWORD_CHANGE_FAILED',
  'RESET_CODE_INVALID',
  'VIEWING_TOKEN_REPLACED',
  'REAUTH_REQUIRED',
  'SIGNUP_USER_EXISTS',
  'SIGNUP_FAILED',
  'PROFILE_SAVE_FAILED',
  'SUBSCRIPTION_UNMAPPED_ERROR',
  'SUBSCRIPTION_CREATE_FAILED',
  'MEMBERSHIP_CHANGE_NOT_ALLOWED',
  'WEBHOOK_SIGNATURE_INVALID',
  'SUBSCRIPTION_CHECKOUT_IN_PROGRESS',
  'PAYMENT_DECLINED',
  'PAYMENT_PENDING',
  'PAYMENT_PROVIDER_UNAVAILABLE',
  'FILE_FORMAT',
  'CAPTIONS_INVALID',
  'CLASSROOM_ACTIVE',
  'CLASSROOM_USERS_NOT_ALLOWED',
  'DIPLOMA_USERS_NOT_ALLOWED',
  'DIPLOMA_NEEDS_VIDEO',
  'DIPLOMA_EXAM_LIMIT',
  'DIPLOMA_EXAM_LOCKED',
  'VIDEO_NOT_WATCHED',
  'CREDIT_EVALUATION_LOCKED',
  'DATA_EXPORT_EXPIRED',
  'ACCOUNT_DELETE_PROVIDER_REFUSED',
  'UNSUBSCRIBE_LINK_INVALID',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export type FieldErrors = Record<string, string>;

/** The one error shape services throw and the API answers with. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields: FieldErrors | undefined;

  constructor(code: ErrorCode, options: { message?: string; fields?: FieldErrors } = {}) {
    super(options.message ?? code);
    this.name = 'AppError';
    this.code = code;
    this.fields = options.fields;
  }
}

export type ErrorBody = { code: ErrorCode; message: string; title?: string; fields?: FieldErrors };

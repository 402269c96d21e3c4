import type { ErrorCode } from './errors.ts';

// The API's error texts, apart from the screens' texts (messages.ts): the app's first chunk needs these to show an
// error, not every screen's labels. Spelling corrected as in messages.ts (docs/decisions/005).

/** What a request that never reached the server says while the browser is offline. */
export const offlineMessage = 'Sin conexión a internet. Revisa tu conexión e intenta de nuevo.';

/** One row per API error code: its HTTP status, Spanish message and modal title where the spec names one. */
export const errorMessages: Record<ErrorCode, { status: number; message: string; title?: string }> = {
  VALIDATION: { status: 400, message: 'Revisa los campos marcados.' },
  UNAUTHENTICATED: { status: 401, message: 'Debes iniciar sesión para continuar.' },
  FORBIDDEN: { status: 403, message: 'No tienes permiso para realizar esta acción.' },
  NOT_FOUND: { status: 404, message: 'Página no encontrada' },
  CONFLICT: { status: 409, message: 'El registro fue modificado, recarga la página.' },
  RATE_LIMITED: { status: 429, message: 'Demasiados intentos, espera unos minutos e intenta de nuevo.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'El archivo es demasiado grande.' },
  NESTING_TOO_DEEP: { status: 400, message: 'La solicitud tiene demasiados niveles anidados.' },
  RANGE_NOT_SATISFIABLE: { status: 416, message: 'Rango no válido.' },
  PRECONDITION_FAILED: { status: 412, message: 'El archivo cambió: vuelve a cargar la página.' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'El servicio no está disponible, intenta más tarde.' },
  INTERNAL: { status: 500, message: 'Ocurrió un error, intenta más tarde' },
  LOGIN_USER_NOT_FOUND: { status: 404, message: 'Usuario no encontrado.' },
  LOGIN_WRONG_PASSWORD: { status: 401, message: 'Contraseña incorrecta' },
  LOGIN_USER_DISABLED: {
    status: 403,
    message: 'Este usuario está deshabilitado, por favor contacta con el administrador.',
  },
  LOGIN_INVALID_EMAIL: { status: 400, message: 'Dirección de correo inválida.' },
  EMAIL_TAKEN: { status: 409, message: 'Este correo ya está registrado, elige otro por favor.' },
  PASSWORD_CHANGE_FAILED: {
    status: 400,
    message: 'Hubo un error al cambiar password',
    title: 'ERROR CAMBIO DE PASSWORD',
  },
  RESET_CODE_INVALID: { status: 400, message: 'El código ya no es válido', title: 'CÓDIGO INVÁLIDO' },
  FILE_FORMAT: { status: 400, message: 'El formato del archivo no es correcto.' },
  CAPTIONS_INVALID: { status: 400, message: 'El archivo de subtítulos no es un WebVTT válido.' },
  REAUTH_REQUIRED: { status: 403, message: 'Por tu seguridad, vuelve a iniciar sesión para editar tu cuenta.' },
  VIEWING_TOKEN_REPLACED: {
    status: 409,
    message: 'Detectamos que se ha ingresado con esta cuenta en otro dispositivo.',
  },
  SIGNUP_USER_EXISTS: {
    status: 409,
    message: 'Este usuario ya existe. Por favor ponte en contacto con nosotros para solucionar este problema',
  },
  SIGNUP_FAILED: {
    status: 500,
    message: 'No se pudo crear usuario, intenta de nuevo. Si el error persiste contáctanos',
  },
  PROFILE_SAVE_FAILED: { status: 500, message: 'No se pudo guardar perfil' },
  SUBSCRIPTION_UNMAPPED_ERROR: {
    status: 503,
    message: 'Por el momento no es posible suspender tu suscripción, por favor espera unos minutos e intenta de nuevo',
  },
  SUBSCRIPTION_CREATE_FAILED: { status: 502, message: 'No se pudo crear la suscripción', title: 'PayPal' },
  MEMBERSHIP_CHANGE_NOT_ALLOWED: {
    status: 409,
    message: 'Este cambio de membresía no está disponible para tu cuenta.',
  },
  VIDEO_NOT_WATCHED: {
    status: 409,
    message: 'Este video se completa al verlo: mira al menos el 90 % para continuar.',
  },
  WEBHOOK_SIGNATURE_INVALID: { status: 401, message: 'Firma no válida.' },
  PAYMENT_PROVIDER_UNAVAILABLE: {
    status: 503,
    message: 'Mercado Pago no responde en este momento. Intenta de nuevo más tarde; no se hizo ningún cargo.',
    title: 'Mercado Pago',
  },
  CLASSROOM_ACTIVE: { status: 409, message: 'Desactiva el aula antes de eliminarla.' },
  CLASSROOM_USERS_NOT_ALLOWED: {
    status: 400,
    message: 'Algunas cuentas no pueden agregarse a esta aula; no se agregó ninguna.',
  },
  DIPLOMA_USERS_NOT_ALLOWED: {
    status: 400,
    message: 'Algunas cuentas no pueden tomar este diplomado; no se agregó ninguna.',
  },
  SUBSCRIPTION_CHECKOUT_IN_PROGRESS: {
    status: 409,
    message:
      'Ya tienes un pago de suscripción en proceso. Espera unos minutos a que se confirme antes de iniciar otro.',
  },
  PAYMENT_DECLINED: {
    status: 402,
    message: 'El pago fue rechazado. Intenta de nuevo con otro medio de pago.',
    title: 'Pago rechazado',
  },
  PAYMENT_PENDING: {
    status: 409,
    message: 'Tu pago está pendiente de confirmación. Te avisaremos en cuanto se complete.',
    title: 'Pago pendiente',
  },
  DIPLOMA_NEEDS_VIDEO: { status: 400, message: 'El diplomado requiere al menos un video para poder guardar.' },
  DIPLOMA_EXAM_LIMIT: {
    status: 400,
    message: 'Solo puedes agregar un examen mientras haya menos exámenes que videos.',
  },
  CREDIT_EVALUATION_LOCKED: {
    status: 409,
    message:
      'La evaluación se abre cuando terminas el diplomado: mira al menos el 90 % de cada video y aprueba los exámenes.',
  },
  DIPLOMA_EXAM_LOCKED: {
    status: 409,
    message: 'Este examen ya tiene respuestas de alumnos: solo puedes cambiar el título, el video y el estado.',
  },
  DATA_EXPORT_EXPIRED: {
    status: 410,
    message: 'Este archivo ya no está disponible: las descargas duran 7 días. Solicita uno nuevo desde tu perfil.',
  },
  ACCOUNT_DELETE_PROVIDER_REFUSED: {
    status: 502,
    message:
      'No pudimos cancelar tu suscripción con el proveedor de pagos, así que no eliminamos nada. Intenta de nuevo en unos minutos o escríbenos desde la página de contacto.',
    title: 'No se eliminó la cuenta',
  },
  UNSUBSCRIBE_LINK_INVALID: { status: 400, message: 'El enlace no es válido.' },
};

/** Shown for a login failure the catalogue does not name. */
export const loginFallback = { title: 'ERROR LOGIN', message: 'Ocurrió un error, intenta más tarde' };

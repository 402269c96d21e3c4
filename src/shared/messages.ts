import type { ErrorCode } from './errors.ts';

/** Spanish texts of the specs, with their spelling corrected (docs/decisions/005). */
export const messages = {
  required: 'Debes llenar este campo',
  requiredDot: 'Debes llenar este campo.',
  invalidEmail: 'Introduce un correo válido.',
  emailsDiffer: 'Las direcciones de correo deben ser idénticas.',
  invalidPhone: 'Introduce un número de teléfono válido.',
  phonesDiffer: 'Los números de teléfono deben ser idénticos.',
  passwordTooShort: 'La contraseña debe tener al menos 6 caracteres.',
  passwordsDiffer: 'Las contraseñas deben ser idénticas.',
  termsRequired: 'Debes leer y aceptar los términos y condiciones.',
  emailTaken: 'Este correo ya está registrado, elige otro por favor.',
  resetPasswordTooShort: 'El password debe tener al menos 6 caracteres',
  resetPasswordsDiffer: 'Los password no coinciden',
  selectValue: 'Debes seleccionar un valor',
  invalidTimeFormat: 'Introduce un formato válido.',
  invalidFileFormat: 'El formato del archivo no es correcto.',
  notFoundPage: 'Página no encontrada',
  proceduresLoadFailed: 'No se pudo cargar la lista de cirugías, intente más tarde',
  tagsLoadFailed: 'No se pudo cargar la lista de etiquetas',
  guideNeedsPremium: 'Para poder descargar este procedimiento necesitas tener una membresía premium.',
  noUpcomingEvents: 'No hay eventos próximos',
  contactSending: 'Enviando mensaje, espere por favor...',
  contactFailedTitle: 'ERROR CORREO CONTACTO',
  contactFailed: 'No se pudo enviar correo',
  contactFailedInline: 'Ocurrió un error.',
  emptyTable: 'No hay información para mostrar.',
  fieldRequired: 'Este campo es requerido.',
  logoRequired: 'Se requiere la imagen del logo.',
  promoRequired: 'Se requiere la imagen del promo.',
  tagNameTaken: 'Ya existe una etiqueta con ese nombre.',
  deleteConfirmation: 'Este proceso no tiene forma de revertirse, ¿Aún desea eliminar este elemento?',
  newsletterImageChanged: 'Se cambió la imagen exitosamente.',
  newsletterImageFailed: 'No se pudo cambiar la imagen',
} as const;

/** Message (and modal title where the spec names one) for each API error code. */
export const errorMessages: Record<ErrorCode, { message: string; title?: string }> = {
  VALIDATION: { message: 'Revisa los campos marcados.' },
  UNAUTHENTICATED: { message: 'Debes iniciar sesión para continuar.' },
  FORBIDDEN: { message: 'No tienes permiso para realizar esta acción.' },
  NOT_FOUND: { message: 'Página no encontrada' },
  CONFLICT: { message: 'El registro fue modificado, recarga la página.' },
  RATE_LIMITED: { message: 'Demasiados intentos, espera unos minutos e intenta de nuevo.' },
  PAYLOAD_TOO_LARGE: { message: 'El archivo es demasiado grande.' },
  RANGE_NOT_SATISFIABLE: { message: 'Rango no válido.' },
  SERVICE_UNAVAILABLE: { message: 'El servicio no está disponible, intente más tarde.' },
  INTERNAL: { message: 'Ocurrió un error, intente más tarde' },
  LOGIN_USER_NOT_FOUND: { message: 'Usuario no encontrado.' },
  LOGIN_WRONG_PASSWORD: { message: 'Contraseña incorrecta' },
  LOGIN_USER_DISABLED: {
    message: 'Este usuario está deshabilitado, por favor contacta con el administrador.',
  },
  LOGIN_INVALID_EMAIL: { message: 'Dirección de correo inválida.' },
  EMAIL_TAKEN: { message: 'Este correo ya está registrado, elige otro por favor.' },
  PASSWORD_CHANGE_FAILED: {
    message: 'Hubo un error al cambiar password',
    title: 'ERROR CAMBIO DE PASSWORD',
  },
  RESET_CODE_INVALID: { message: 'El código ya no es válido', title: 'CÓDIGO INVÁLIDO' },
  FILE_FORMAT: { message: 'El formato del archivo no es correcto.' },
  REAUTH_REQUIRED: { message: 'Por tu seguridad, vuelve a iniciar sesión para editar tu cuenta.' },
  VIEWING_TOKEN_REPLACED: { message: 'Detectamos que se ha ingresado con esta cuenta en otro dispositivo.' },
  SIGNUP_USER_EXISTS: {
    message: 'Este usuario ya existe. Por favor ponte en contacto con nosotros para solucionar este problema',
  },
  SIGNUP_FAILED: { message: 'No se pudo crear usuario, intenta de nuevo. Si el error persiste contáctanos' },
  PROFILE_SAVE_FAILED: { message: 'No se pudo guardar perfil' },
  SUBSCRIPTION_UNMAPPED_ERROR: {
    message: 'Por el momento no es posible suspender tu suscripción, por favor espera unos minutos e intenta de nuevo',
  },
  SUBSCRIPTION_CREATE_FAILED: { message: 'No se pudo crear la suscripción', title: 'PayPal' },
  MEMBERSHIP_CHANGE_NOT_ALLOWED: { message: 'Este cambio de membresía no está disponible para tu cuenta.' },
  WEBHOOK_SIGNATURE_INVALID: { message: 'Firma no válida.' },
};

/** Shown for a login failure the catalogue does not name. */
export const loginFallback = { title: 'ERROR LOGIN', message: 'Ocurrió un error, intente más tarde' };

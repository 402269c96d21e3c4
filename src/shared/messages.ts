import type { ErrorCode } from './errors.ts';

/** Spanish texts of the specs, word for word. */
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
  emailTaken: 'Este correo ya esta registrado, elige otro por favor.',
  resetPasswordTooShort: 'El password debe tener al menos 6 caracteres',
  resetPasswordsDiffer: 'Los password no coinciden',
  selectValue: 'Debes seleccionar un valor',
  invalidTimeFormat: 'Introduce un formato válido.',
  invalidFileFormat: 'El formato del archivo no es correcto.',
  notFoundPage: 'Pagina no encontrada',
  emptyTable: 'No hay información para mostrar.',
} as const;

/** Message (and modal title where the spec names one) for each API error code. */
export const errorMessages: Record<ErrorCode, { message: string; title?: string }> = {
  VALIDATION: { message: 'Revisa los campos marcados.' },
  UNAUTHENTICATED: { message: 'Debes iniciar sesión para continuar.' },
  FORBIDDEN: { message: 'No tienes permiso para realizar esta acción.' },
  NOT_FOUND: { message: 'Pagina no encontrada' },
  CONFLICT: { message: 'El registro fue modificado, recarga la página.' },
  RATE_LIMITED: { message: 'Demasiados intentos, espera unos minutos e intenta de nuevo.' },
  PAYLOAD_TOO_LARGE: { message: 'El archivo es demasiado grande.' },
  RANGE_NOT_SATISFIABLE: { message: 'Rango no válido.' },
  SERVICE_UNAVAILABLE: { message: 'El servicio no está disponible, intente más tarde.' },
  INTERNAL: { message: 'Ocurrió un error, intente más tarde' },
  LOGIN_USER_NOT_FOUND: { message: 'Usuario no encontrado.' },
  LOGIN_WRONG_PASSWORD: { message: 'Contraseña incorrecta' },
  LOGIN_USER_DISABLED: {
    message: 'Este usuario esta deshabilitado, por favor contacta con el administrador.',
  },
  LOGIN_INVALID_EMAIL: { message: 'Dirección de correo inválida.' },
  EMAIL_TAKEN: { message: 'Este correo ya esta registrado, elige otro por favor.' },
  PASSWORD_CHANGE_FAILED: {
    message: 'Hubo un error al cambiar password',
    title: 'ERROR CAMBIO DE PASSWORD',
  },
  RESET_CODE_INVALID: { message: 'El código ya no es válido', title: 'CÓDIGO INVÁLIDO' },
  VIEWING_TOKEN_REPLACED: { message: 'Detectamos que se ha ingresado con esta cuenta en otro dispositivo.' },
};

/** Shown for a login failure the catalogue does not name. */
export const loginFallback = { title: 'ERROR LOGIN', message: 'Ocurrió un error, intente más tarde' };

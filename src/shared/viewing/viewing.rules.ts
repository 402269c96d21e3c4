/** Spec 1 §8: shown when the same account opens a procedure on another device. */
export const secondDeviceMessage = 'Detectamos que se ha ingresado con esta cuenta en otro dispositivo.';
export const useHereLabel = 'Usar en este dispositivo';

/** Server-Sent Event name telling a viewer its token was taken by another device. */
export const tokenReplacedEvent = 'replaced';

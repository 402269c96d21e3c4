import { errorMessages } from '../error-messages.ts';

/** Spec 1 §8: shown when the same account opens a procedure on another device. */
export const secondDeviceMessage = errorMessages.VIEWING_TOKEN_REPLACED.message;
export const useHereLabel = 'Usar en este dispositivo';

/** Server-Sent Event name telling a viewer its token was taken by another device. */
export const tokenReplacedEvent = 'replaced';

import { parsePhoneNumberFromString } from 'libphonenumber-js';

/** '+52 55 1234 5678' for '+525512345678'; the value as stored when it does not parse. */
export function formatPhoneInternational(value: string): string {
  return parsePhoneNumberFromString(value)?.formatInternational() ?? value;
}

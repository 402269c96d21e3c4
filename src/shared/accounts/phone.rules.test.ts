import { describe, expect, it } from 'vitest';
import { formatPhoneNumberIntl } from 'react-phone-number-input';
import { formatPhoneInternational } from './phone.rules.ts';

describe('formatPhoneInternational', () => {
  it.each(['+525512345678', '+573001234567', '+34912345678', '+14155552671'])(
    'writes %s as the phone field of the forms does',
    (value) => {
      expect(formatPhoneInternational(value)).toBe(formatPhoneNumberIntl(value));
      expect(formatPhoneInternational(value)).toMatch(/^\+\d+ /);
    },
  );

  it('keeps a value that is not a phone number as it is', () => {
    expect(formatPhoneInternational('')).toBe('');
    expect(formatPhoneInternational('55 1234')).toBe('55 1234');
  });
});

import dayjs from 'dayjs';
import 'dayjs/locale/es';
import { formatPhoneNumberIntl } from 'react-phone-number-input';
import type { AdminUserRow } from '#shared/accounts/users.admin.schemas.ts';

/** The list's Membresía: a Premium member's plan is named (spec 2 §4: annual by flag, otherwise monthly). */
export function membershipLabel(user: Pick<AdminUserRow, 'type' | 'annualPlan'>): string {
  if (user.type !== 'Premium') return user.type;
  return user.annualPlan ? 'Premium anual' : 'Premium mensual';
}

/** A date the way the console shows it: 5 de marzo de 2026. */
export function spanishDate(value: string | null | undefined): string {
  return value ? dayjs(value).locale('es').format('D [de] MMMM [de] YYYY') : '-';
}

/** A stored E.164 number grouped for reading (+52 55 1234 5678); anything else as stored. */
export function phoneLabel(value: string): string {
  if (!value) return '-';
  return formatPhoneNumberIntl(value) || value;
}

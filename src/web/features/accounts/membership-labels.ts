import dayjs from 'dayjs';
import type { AccountType } from '#shared/accounts/accounts.rules.ts';
import { planPriceCents } from '#shared/payments/payments.rules.ts';
import { formatUsd } from '#shared/payments/payments.rules.ts';

export const typeLabels: Record<AccountType, string> = {
  Gratis: 'Básica',
  Premium: 'Premium',
  Legacy: 'Legacy',
  Admin: 'Administrador',
};

export const planOptions = [
  {
    value: 'basic',
    title: 'Básica',
    price: 'Gratis',
    detail: 'Procedimientos gratuitos y sus guías en PDF, para siempre.',
  },
  {
    value: 'monthly',
    title: 'Premium mensual',
    price: formatUsd(planPriceCents.monthly),
    detail: 'Todo el catálogo, guías en PDF, descuentos y diplomados. Cobro cada 30 días.',
  },
  {
    value: 'annual',
    title: 'Premium anual',
    price: formatUsd(planPriceCents.annual),
    detail: 'Todos los beneficios Premium durante un año con un solo pago.',
  },
] as const;

/** Spanish long date (DESIGN.md: explicit format). */
export const longDate = (iso: string) => dayjs(iso).format('D [de] MMMM [de] YYYY');

/** The FALLIDO banner: only a member who had paid before lost Premium (a first payment has no paymentDay yet). */
export const failedPaymentBanner = (membership: { paymentDay: string | null }) =>
  membership.paymentDay
    ? 'No se pudo realizar el pago de tu suscripción, tu membresía ha sido cambiada a básica.'
    : 'No se pudo realizar el pago de tu suscripción. Tu membresía sigue siendo Básica; puedes intentarlo de nuevo desde tu perfil.';

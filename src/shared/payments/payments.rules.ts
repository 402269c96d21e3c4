export const plans = ['monthly', 'annual'] as const;
export type Plan = (typeof plans)[number];

/** Prices in integer cents (USD). */
export const planPriceCents: Record<Plan, number> = { monthly: 999, annual: 9990 };

export const paymentProviders = ['simulado', 'paypal', 'manual', 'mercadopago'] as const;

export const subscriptionStates = ['PENDIENTE', 'ACTIVA', 'CANCELADA', 'SUSPENDIDA', 'EXPIRADA'] as const;
export const paymentKinds = ['subscription', 'order'] as const;
/** COMPLETADO, FALLIDO (declined), REEMBOLSADO, PENDIENTE (the provider has not settled it yet), REEMBOLSO_PARCIAL. */
export const paymentResults = ['COMPLETADO', 'FALLIDO', 'REEMBOLSADO', 'PENDIENTE', 'REEMBOLSO_PARCIAL'] as const;
export type PaymentResult = (typeof paymentResults)[number];

export function formatUsd(cents: number): string {
  return `${(cents / 100).toFixed(2)} USD`;
}

/** Pesos as Mexico writes them: $2,499.00 MXN. */
export function formatMxn(cents: number): string {
  return `$${(cents / 100).toLocaleString('es-MX', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} MXN`;
}

/** An amount in the currency it was paid in, never converted. */
export function formatMoney(cents: number, currency: string): string {
  return currency === 'MXN' ? formatMxn(cents) : formatUsd(cents);
}

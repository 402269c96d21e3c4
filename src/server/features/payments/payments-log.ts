import type { Log } from '#server/services/log.ts';
import { ProviderError } from '#server/services/payments/payment-provider.ts';

export type PaymentsLog = Pick<Log, 'warn' | 'error'> & Partial<Pick<Log, 'info'>>;
export type ProviderFailureLogger = (error: unknown, msg: string, context?: object) => void;

/** Logs a failed provider call with what support needs to trace it (PayPal's debug_id), no personal data. */
export function providerFailureLogger(log: PaymentsLog): ProviderFailureLogger {
  return (error, msg, context = {}) => {
    const details = error instanceof ProviderError ? { status: error.status, ...error.details } : {};
    log.error({ ...context, ...details, err: error }, msg);
  };
}

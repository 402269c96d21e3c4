import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  confirmSubscriptionResponseSchema,
  PaymentsConfig,
  startSubscriptionResponseSchema,
  startSubscriptionSchema,
} from '#shared/payments/payments.schemas.ts';
import type { CardCheckout, CardCheckoutStatus, OfflinePayment } from '#shared/payments/mercadopago.schemas.ts';
import { useRefreshAccount } from '#web/features/accounts/current-user.api.ts';
import { api } from '#web/lib/api-client.ts';

const paymentKeys = {
  all: ['payments'] as const,
  config: () => [...paymentKeys.all, 'config'] as const,
};

const paymentsApi = {
  config: (signal?: AbortSignal) => api.get<PaymentsConfig>('/api/payments/config', { signal }),
  startSubscription: (input: z.input<typeof startSubscriptionSchema>) =>
    api.post<z.infer<typeof startSubscriptionResponseSchema>>('/api/payments/subscriptions', input),
  startPesosSubscription: (input: z.input<typeof startSubscriptionSchema>) =>
    api.post<z.infer<typeof startSubscriptionResponseSchema>>('/api/payments/mercadopago/subscriptions', input),
  startPremiumPass: (method: 'oxxo' | 'clabe') =>
    api.post<OfflinePayment>('/api/payments/mercadopago/premium-pass', { method }),
  startPremiumPassCard: () => api.post<CardCheckout>('/api/payments/mercadopago/premium-pass/card'),
  confirmCardCheckout: (paymentId: string) =>
    api.post<{ status: CardCheckoutStatus }>('/api/payments/mercadopago/checkout/confirm', { paymentId }),
  confirmPesosSubscription: () =>
    api.post<z.infer<typeof confirmSubscriptionResponseSchema>>('/api/payments/mercadopago/subscriptions/confirm'),
  confirmSubscription: (subscriptionId: string) =>
    api.post<z.infer<typeof confirmSubscriptionResponseSchema>>(
      `/api/payments/subscriptions/${encodeURIComponent(subscriptionId)}/confirm`,
    ),
};

/** The root route loads it before the first paint, so the test-mode bar is there from the start instead of pushing the page down. */
export const paymentsConfigQuery = queryOptions({
  queryKey: paymentKeys.config(),
  queryFn: ({ signal }) => paymentsApi.config(signal),
  staleTime: Infinity,
});

/** The payment provider in use; the test-mode banner and the plan pickers share this one request. */
export function usePaymentsConfig() {
  return useQuery(paymentsConfigQuery);
}

/** Starts a subscription at the provider; the caller sends the browser to approvalUrl. */
export function useStartSubscription() {
  return useMutation({ mutationFn: paymentsApi.startSubscription });
}

/** Asks the server to check a returning subscription with the provider. */
export function useConfirmSubscription() {
  const refresh = useRefreshAccount();
  return useMutation({ mutationFn: paymentsApi.confirmSubscription, onSuccess: refresh });
}

/** Starts a card subscription in pesos (Mercado Pago); the caller sends the browser to approvalUrl. */
export function useStartPesosSubscription() {
  return useMutation({ mutationFn: paymentsApi.startPesosSubscription });
}

/** Back from Mercado Pago: the server reads the member's newest card subscription in pesos back. */
export function useConfirmPesosSubscription() {
  const refresh = useRefreshAccount();
  return useMutation({ mutationFn: paymentsApi.confirmPesosSubscription, onSuccess: refresh });
}

/** 'Premium anual (pago único)' at OXXO or by SPEI: answers the voucher or the CLABE to show. */
export function useStartPremiumPass() {
  return useMutation({ mutationFn: paymentsApi.startPremiumPass });
}

/** 'Premium anual (pago único)' by card on Mercado Pago's page; the caller sends the browser to approvalUrl. */
export function useStartPremiumPassCard() {
  return useMutation({ mutationFn: paymentsApi.startPremiumPassCard });
}

/** Back from a one-time card payment: the server reads the payment named in the URL back, if it is this member's. */
export function useConfirmCardCheckout() {
  const refresh = useRefreshAccount();
  return useMutation({ mutationFn: paymentsApi.confirmCardCheckout, onSuccess: refresh });
}

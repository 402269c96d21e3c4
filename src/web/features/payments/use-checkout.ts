import { useErrorModal } from '#web/components/error-modal.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import {
  usePaymentsConfig,
  useStartPesosSubscription,
  useStartPremiumPass,
  useStartPremiumPassCard,
  useStartSubscription,
} from './payments.api.ts';

/** pass: 'Premium anual (pago único)', by card in pesos, at OXXO or by SPEI. */
export type CheckoutPlan = 'monthly' | 'annual' | 'pass';
/** usd: the configured provider in dollars; mxn: a card in pesos; oxxo and clabe: the annual pass. */
export type CheckoutMethod = 'usd' | 'mxn' | 'oxxo' | 'clabe';

export const checkoutActionLabel: Record<Exclude<CheckoutMethod, 'usd'>, string> = {
  mxn: 'Continuar en Mercado Pago',
  oxxo: 'Generar ficha para OXXO',
  clabe: 'Ver datos para transferir',
};

/**
 * Premium by every configured way: a subscription in dollars or by card in pesos (the browser goes to the
 * provider's page and back to `returnTo`), or the pass by card, at OXXO or by SPEI (the voucher shows here).
 */
export function useCheckout(returnTo: 'profile' | 'signup') {
  const { showError, showAppError } = useErrorModal();
  const config = usePaymentsConfig();
  const start = useStartSubscription();
  const startPesos = useStartPesosSubscription();
  const startPass = useStartPremiumPass();
  const startPassCard = useStartPremiumPassCard();
  const providerName = config.data?.providerName ?? 'PayPal';
  const pesosPlans = config.data?.pesosPlans ?? { monthly: null, annual: null };
  const pesosMethods = config.data?.pesosMethods ?? [];

  const redirect = { onSuccess: (result: { approvalUrl: string }) => window.location.assign(result.approvalUrl) };
  const onError = (error: unknown) => showAppError(error);
  const pay = (method: CheckoutMethod, plan: CheckoutPlan) => {
    if (method === 'oxxo' || method === 'clabe') startPass.mutate(method, { onError });
    else if (plan === 'pass') startPassCard.mutate(undefined, { ...redirect, onError });
    else if (method === 'mxn') startPesos.mutate({ plan, returnTo }, { ...redirect, onError });
    else
      start.mutate(
        { plan, returnTo },
        {
          ...redirect,
          onError: (error) => {
            if (error instanceof ApiError && error.code === 'SUBSCRIPTION_CREATE_FAILED')
              showError({ title: providerName, message: error.message });
            else showAppError(error);
          },
        },
      );
  };

  return {
    pay,
    isPending: start.isPending || startPesos.isPending || startPass.isPending || startPassCard.isPending,
    voucher: startPass.data,
    providerName,
    pesosPlans,
    pesosMethods,
    /** The pass in pesos costs the annual plan's price in pesos; null when it is not sold in pesos. */
    passPrice: pesosPlans.annual,
  };
}

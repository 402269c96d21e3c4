import { Button, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import {
  usePaymentsConfig,
  useStartPesosSubscription,
  useStartPremiumPass,
  useStartPremiumPassCard,
  useStartSubscription,
} from '#web/features/payments/payments.api.ts';
import { OfflineInstructions } from '#web/features/payments/offline-instructions.tsx';
import { formatMxn } from '#shared/payments/payments.rules.ts';
import { planOptions } from '../membership-labels.ts';

/** pass: 'Premium anual (pago único)', here by card in pesos (at OXXO or by SPEI it is the only plan). */
type Plan = 'monthly' | 'annual' | 'pass';
/** usd: the configured provider in dollars; mxn: a card subscription in pesos; oxxo and clabe: the annual pass. */
type Method = 'usd' | 'mxn' | 'oxxo' | 'clabe';

const actionLabel: Record<Exclude<Method, 'usd'>, string> = {
  mxn: 'Continuar en Mercado Pago',
  oxxo: 'Generar ficha para OXXO',
  clabe: 'Ver datos para transferir',
};

/** 'Obtén Premium' on the profile: the plan and how to pay it, each shown in the currency of the method. */
export function UpgradeChoice() {
  const { showError, showAppError } = useErrorModal();
  const config = usePaymentsConfig();
  const start = useStartSubscription();
  const startPesos = useStartPesosSubscription();
  const startPass = useStartPremiumPass();
  const startPassCard = useStartPremiumPassCard();
  const [plan, setPlan] = useState<Plan>('monthly');
  const [method, setMethod] = useState<Method>('usd');
  const providerName = config.data?.providerName ?? 'PayPal';
  const pesosPlans = config.data?.pesosPlans ?? { monthly: null, annual: null };
  const pesosMethods = config.data?.pesosMethods ?? [];
  const cardInPesos = pesosPlans.monthly !== null || pesosPlans.annual !== null;
  const passPrice = pesosPlans.annual;
  const offline = method === 'oxxo' || method === 'clabe';

  const chooseMethod = (value: string) => {
    const next = value as Method;
    setMethod(next);
    // a plan not sold in pesos cannot stay chosen with the card in pesos, nor the pass with dollars
    if (next === 'mxn' && plan !== 'pass' && pesosPlans[plan] === null)
      setPlan(plan === 'monthly' ? 'annual' : 'monthly');
    if (next !== 'mxn' && plan === 'pass') setPlan('annual');
  };

  const redirect = { onSuccess: (result: { approvalUrl: string }) => window.location.assign(result.approvalUrl) };
  const pay = () => {
    if (method === 'oxxo' || method === 'clabe') startPass.mutate(method, { onError: (error) => showAppError(error) });
    else if (plan === 'pass') startPassCard.mutate(undefined, { ...redirect, onError: (error) => showAppError(error) });
    else if (method === 'mxn')
      startPesos.mutate({ plan, returnTo: 'profile' }, { ...redirect, onError: (error) => showAppError(error) });
    else
      start.mutate(
        { plan, returnTo: 'profile' },
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

  if (startPass.data) return <OfflineInstructions payment={startPass.data} />;
  return (
    <Stack gap="xs">
      {offline && passPrice !== null ? (
        <Stack gap={4}>
          <Text fw={600}>Obtén Premium</Text>
          <Text>Premium anual (pago único) · {formatMxn(passPrice)}</Text>
          <Text size="sm" c="dimmed">
            Un año de Premium sin renovación automática. Empieza cuando Mercado Pago confirme tu pago.
          </Text>
        </Stack>
      ) : (
        <Radio.Group label="Obtén Premium" value={plan} onChange={(value) => setPlan(value as Plan)}>
          <Stack gap="xs" mt="xs">
            {planOptions
              .filter((option) => option.value !== 'basic')
              .map((option) => {
                const pesos = method === 'mxn' ? pesosPlans[option.value as 'monthly' | 'annual'] : null;
                const price =
                  method !== 'mxn' ? option.price : pesos === null ? 'no disponible en pesos' : formatMxn(pesos);
                return (
                  <Radio
                    key={option.value}
                    value={option.value}
                    disabled={method === 'mxn' && pesos === null}
                    label={`${option.title} · ${price}`}
                  />
                );
              })}
            {method === 'mxn' && passPrice !== null && (
              <Radio value="pass" label={`Premium anual (pago único) · ${formatMxn(passPrice)}`} />
            )}
          </Stack>
        </Radio.Group>
      )}
      {(cardInPesos || passPrice !== null) && (
        <Radio.Group label="Forma de pago" value={method} onChange={chooseMethod}>
          <Stack gap="xs" mt="xs">
            {cardInPesos && <Radio value="mxn" label="Tarjeta de crédito o débito (pesos)" />}
            {passPrice !== null && pesosMethods.includes('oxxo') && <Radio value="oxxo" label="Efectivo en OXXO" />}
            {passPrice !== null && pesosMethods.includes('clabe') && <Radio value="clabe" label="Transferencia SPEI" />}
            <Radio value="usd" label={`${providerName} (USD)`} />
          </Stack>
        </Radio.Group>
      )}
      <Button
        onClick={pay}
        loading={start.isPending || startPesos.isPending || startPass.isPending || startPassCard.isPending}
      >
        {method === 'usd' ? `Obtener Premium con ${providerName}` : actionLabel[method]}
      </Button>
      {method === 'mxn' && (
        <Text size="xs" c="dimmed">
          {plan === 'pass'
            ? 'Pagas una sola vez en el sitio de Mercado Pago: un año de Premium sin renovación automática. CxVet no ve ni guarda los datos de tu tarjeta.'
            : 'Autorizas tu tarjeta en el sitio de Mercado Pago; CxVet no ve ni guarda sus datos.'}
        </Text>
      )}
    </Stack>
  );
}

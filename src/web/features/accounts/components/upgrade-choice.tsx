import { Button, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { OfflineInstructions } from '#web/features/payments/offline-instructions.tsx';
import {
  checkoutActionLabel as actionLabel,
  useCheckout,
  type CheckoutMethod as Method,
  type CheckoutPlan as Plan,
} from '#web/features/payments/use-checkout.ts';
import { formatMxn } from '#shared/payments/payments.rules.ts';
import { planOptions } from '../membership-labels.ts';

/** 'Obtén Premium' on the profile: the plan and how to pay it, each shown in the currency of the method. */
export function UpgradeChoice() {
  const checkout = useCheckout('profile');
  const [plan, setPlan] = useState<Plan>('monthly');
  const [method, setMethod] = useState<Method>('usd');
  const { providerName, pesosPlans, pesosMethods, passPrice } = checkout;
  const cardInPesos = pesosPlans.monthly !== null || pesosPlans.annual !== null;
  const offline = method === 'oxxo' || method === 'clabe';

  const chooseMethod = (value: string) => {
    const next = value as Method;
    setMethod(next);
    // a plan not sold in pesos cannot stay chosen with the card in pesos, nor the pass with dollars
    if (next === 'mxn' && plan !== 'pass' && pesosPlans[plan] === null)
      setPlan(plan === 'monthly' ? 'annual' : 'monthly');
    if (next !== 'mxn' && plan === 'pass') setPlan('annual');
  };

  const pay = () => checkout.pay(method, plan);

  if (checkout.voucher) return <OfflineInstructions payment={checkout.voucher} />;
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
      <Button onClick={pay} loading={checkout.isPending}>
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

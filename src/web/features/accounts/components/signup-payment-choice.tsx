import { Button, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatMxn } from '#shared/payments/payments.rules.ts';
import { OfflineInstructions } from '#web/features/payments/offline-instructions.tsx';
import { checkoutActionLabel, useCheckout, type CheckoutMethod } from '#web/features/payments/use-checkout.ts';
import { paths } from '#web/paths.ts';
import { planOptions } from '../membership-labels.ts';

/**
 * The last step of a Premium sign-up where Mercado Pago takes pesos: how to pay the plan chosen, its price shown
 * in the currency of that method. At OXXO or by SPEI the annual plan is the pass (paid once, not renewed), whose
 * voucher shows here; the account stays Básica until Mercado Pago confirms the money.
 */
export function SignUpPaymentChoice({ plan }: { plan: 'monthly' | 'annual' }) {
  const checkout = useCheckout('signup');
  const [method, setMethod] = useState<CheckoutMethod>('usd');
  const { providerName, pesosPlans, pesosMethods, passPrice } = checkout;
  const pesos = pesosPlans[plan];
  const offlineMethods = plan === 'annual' && passPrice !== null ? pesosMethods : [];
  // a method the plan cannot be paid with (monthly at OXXO) falls back to dollars
  const chosen =
    method === 'usd' || (method === 'mxn' ? pesos !== null : offlineMethods.includes(method)) ? method : 'usd';
  const option = planOptions.find((each) => each.value === plan)!;

  if (checkout.voucher)
    return (
      <Stack gap="sm">
        <OfflineInstructions payment={checkout.voucher} />
        <Button component={Link} to={paths.profile} variant="default">
          Ir a Mi CxVet
        </Button>
      </Stack>
    );
  return (
    <Stack gap="xs">
      <Text fw={600}>
        {chosen === 'usd'
          ? `${option.title} · ${option.price}`
          : chosen === 'mxn'
            ? `${option.title} · ${formatMxn(pesos!)}`
            : `Premium anual (pago único) · ${formatMxn(passPrice!)}`}
      </Text>
      <Radio.Group label="Forma de pago" value={chosen} onChange={(value) => setMethod(value as CheckoutMethod)}>
        <Stack gap="xs" mt="xs">
          {pesos !== null && <Radio value="mxn" label="Tarjeta de crédito o débito (pesos)" />}
          {offlineMethods.includes('oxxo') && <Radio value="oxxo" label="Efectivo en OXXO" />}
          {offlineMethods.includes('clabe') && <Radio value="clabe" label="Transferencia SPEI" />}
          <Radio value="usd" label={`${providerName} (USD)`} />
        </Stack>
      </Radio.Group>
      <Text size="sm">
        {chosen === 'usd'
          ? `Serás dirigido a ${providerName} para aprobar la suscripción; tu membresía Premium se activa cuando confirme el pago.`
          : chosen === 'mxn'
            ? 'Autorizas tu tarjeta en el sitio de Mercado Pago; CxVet no ve ni guarda sus datos. Tu membresía Premium se activa cuando Mercado Pago confirme el cobro.'
            : 'Un año de Premium sin renovación automática. Empieza cuando Mercado Pago confirme tu pago.'}
      </Text>
      <Button onClick={() => checkout.pay(chosen, plan)} loading={checkout.isPending}>
        {chosen === 'usd' ? `Pagar con ${providerName}` : checkoutActionLabel[chosen]}
      </Button>
    </Stack>
  );
}

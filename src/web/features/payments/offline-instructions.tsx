import { Anchor, Card, Code, Stack, Text, Title } from '@mantine/core';
import type { OfflinePayment } from '#shared/payments/mercadopago.schemas.ts';
import { formatMxn } from '#shared/payments/payments.rules.ts';
import { usePendingPesosPayments } from '#web/features/accounts/accounts.api.ts';

const dayFormat = new Intl.DateTimeFormat('es-MX', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** What to pay where, shown on our page: the OXXO voucher or the CLABE, with amount and deadline. */
export function OfflineInstructions({ payment }: { payment: OfflinePayment }) {
  // the page follows the payment: once it is confirmed, what it paid for shows here without a reload
  usePendingPesosPayments(payment.paymentId);
  const until = dayFormat.format(new Date(payment.expiresAt));
  return (
    <Card withBorder padding="md" role="status" aria-live="polite">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {payment.method === 'oxxo' ? `Paga en OXXO antes del ${until}` : `Transfiere por SPEI antes del ${until}`}
        </Title>
        <Text>
          Monto exacto: <strong>{formatMxn(payment.amountCents)}</strong>
        </Text>
        {payment.clabe ? (
          <Text>
            CLABE: <Code fz="md">{payment.clabe}</Code>
          </Text>
        ) : null}
        {payment.instructionsUrl ? (
          <Anchor href={payment.instructionsUrl} target="_blank" rel="noopener noreferrer">
            {payment.method === 'oxxo' ? 'Ver ficha de pago para OXXO' : 'Ver instrucciones de la transferencia'}
          </Anchor>
        ) : null}
        <Text size="sm" c="dimmed">
          Tu acceso empieza cuando Mercado Pago confirme el pago, a veces hasta el día siguiente. Si no pagas antes de
          esa fecha, la ficha vence y no se hace ningún cargo.
        </Text>
      </Stack>
    </Card>
  );
}

import { Alert, Anchor, Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import type { OfflinePayment } from '#shared/payments/mercadopago.schemas.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { useStartPesosPurchase } from '#web/features/diplomas/member/diplomas.api.ts';
import { formatMxn } from '#shared/payments/payments.rules.ts';

const dayFormat = new Intl.DateTimeFormat('es-MX', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** What to pay where, shown on our page: the OXXO voucher or the CLABE, with amount and deadline. */
function Instructions({ payment }: { payment: OfflinePayment }) {
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

/** The diploma's price in pesos and the ways to pay it offline (Mercado Pago). */
export function PesosPayment({
  diplomaId,
  costMxnCents,
  methods,
}: {
  diplomaId: string;
  costMxnCents: number;
  methods: ('oxxo' | 'clabe')[];
}) {
  const start = useStartPesosPurchase(diplomaId);
  const { showAppError } = useErrorModal();
  const pay = (method: 'oxxo' | 'clabe') => start.mutate(method, { onError: (error) => showAppError(error) });

  if (start.data) return <Instructions payment={start.data} />;
  return (
    <Stack gap="xs">
      <Text fw={700} size="lg">
        O en pesos: {formatMxn(costMxnCents)}
      </Text>
      <Group gap="xs" grow preventGrowOverflow={false} wrap="wrap">
        {methods.includes('oxxo') ? (
          <Button variant="outline" onClick={() => pay('oxxo')} loading={start.isPending && start.variables === 'oxxo'}>
            Efectivo en OXXO
          </Button>
        ) : null}
        {methods.includes('clabe') ? (
          <Button
            variant="outline"
            onClick={() => pay('clabe')}
            loading={start.isPending && start.variables === 'clabe'}
          >
            Transferencia SPEI
          </Button>
        ) : null}
      </Group>
      {start.isError ? null : (
        <Alert variant="light" color="gray" p="xs">
          <Text size="xs">Te mostraremos la ficha o la CLABE aquí mismo; no necesitas cuenta de Mercado Pago.</Text>
        </Alert>
      )}
    </Stack>
  );
}

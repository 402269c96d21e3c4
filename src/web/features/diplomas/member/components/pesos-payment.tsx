import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { OfflineInstructions } from '#web/features/payments/offline-instructions.tsx';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { useStartPesosPurchase } from '#web/features/diplomas/member/diplomas.api.ts';
import { formatMxn } from '#shared/payments/payments.rules.ts';

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

  if (start.data) return <OfflineInstructions payment={start.data} />;
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

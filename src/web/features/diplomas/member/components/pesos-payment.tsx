import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { OfflineInstructions } from '#web/features/payments/offline-instructions.tsx';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { useQueryClient } from '@tanstack/react-query';
import {
  diplomaKeys,
  useStartPesosCardPurchase,
  useStartPesosPurchase,
} from '#web/features/diplomas/member/diplomas.api.ts';
import { useCardCheckoutReturn } from '#web/features/payments/use-card-return.ts';
import { formatMxn } from '#shared/payments/payments.rules.ts';

const cardNotices = {
  approved: { color: 'green', title: 'Pago aprobado', message: 'Ya tienes acceso al diplomado.' },
  pending: {
    color: 'yellow',
    title: 'Pago pendiente',
    message: 'Aún no se confirma tu pago; tendrás acceso al diplomado en cuanto se confirme.',
  },
};

/** Back on the diploma's page from Mercado Pago's card page: the payment is read back, then the page follows. */
export function useCardReturn(diplomaId: string) {
  const queryClient = useQueryClient();
  useCardCheckoutReturn(cardNotices, () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: diplomaKeys.salesPage(diplomaId) }),
      queryClient.invalidateQueries({ queryKey: diplomaKeys.list() }),
    ]),
  );
}

/** The diploma's price in pesos and the ways to pay it through Mercado Pago: card on its page, OXXO, SPEI. */
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
  const card = useStartPesosCardPurchase(diplomaId);
  const { showAppError } = useErrorModal();
  const pay = (method: 'oxxo' | 'clabe') => start.mutate(method, { onError: (error) => showAppError(error) });
  const payByCard = () =>
    card.mutate(undefined, {
      onSuccess: ({ approvalUrl }) => window.location.assign(approvalUrl),
      onError: (error) => showAppError(error),
    });

  if (start.data) return <OfflineInstructions payment={start.data} />;
  return (
    <Stack gap="xs">
      <Text fw={700} size="lg">
        O en pesos: {formatMxn(costMxnCents)}
      </Text>
      <Group gap="xs" grow preventGrowOverflow={false} wrap="wrap">
        <Button variant="outline" onClick={payByCard} loading={card.isPending || card.isSuccess}>
          Tarjeta de crédito o débito (pesos)
        </Button>
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
          <Text size="xs">
            Con tarjeta pagas en el sitio de Mercado Pago; la ficha o la CLABE te las mostramos aquí mismo. No necesitas
            cuenta de Mercado Pago.
          </Text>
        </Alert>
      )}
    </Stack>
  );
}

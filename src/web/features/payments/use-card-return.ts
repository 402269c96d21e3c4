import { notifications } from '@mantine/notifications';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import type { CardCheckoutStatus } from '#shared/payments/mercadopago.schemas.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { useConfirmCardCheckout } from './payments.api.ts';

type Notice = { color: string; title: string; message: string };

/** What the member is told on coming back from a one-time card payment, by what the server read back. */
const declined: Notice = {
  color: 'red',
  title: 'Pago rechazado',
  message: 'El pago fue rechazado. Intenta de nuevo con otro medio de pago.',
};

/**
 * Back from Mercado Pago's card page (`?pago=mercadopago&payment_id=…`): the payment id is only a hint, the server
 * reads it back and applies it if it is this member's; then the URL is cleaned. Returns whether this is such a return.
 */
export function useCardCheckoutReturn(notices: { approved: Notice; pending: Notice }, onDone?: () => unknown) {
  const [params, setParams] = useSearchParams();
  const confirm = useConfirmCardCheckout();
  const { showAppError } = useErrorModal();
  const handled = useRef(false);
  const paymentId = params.get('pago') === 'mercadopago' ? params.get('payment_id') : null;

  useEffect(() => {
    if (handled.current || !paymentId) return;
    handled.current = true;
    // Mercado Pago writes 'null' when the member came back without paying
    if (paymentId === 'null') {
      notifications.show({ color: 'yellow', title: 'Pago cancelado', message: 'No se realizó ningún cargo.' });
      setParams({}, { replace: true });
      return;
    }
    confirm.mutate(paymentId, {
      onSuccess: ({ status }: { status: CardCheckoutStatus }) => {
        notifications.show(
          status === 'COMPLETED' ? notices.approved : status === 'PENDING' ? notices.pending : declined,
        );
        setParams({}, { replace: true });
        void onDone?.();
      },
      onError: (error) => showAppError(error),
    });
  }, [paymentId, confirm, notices, onDone, setParams, showAppError]);

  return paymentId !== null;
}

import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { downloadFile } from '#web/lib/api-client.ts';
import type { MyFacturas } from '../facturas.api.ts';
import { FacturaForm } from './factura-form.tsx';
import { CreditNotes } from './credit-notes.tsx';

/** The history's 'Factura' cell of one payment: its factura, and below it the notas de crédito of partial refunds. */
export function FacturaCell({ paymentId, facturas }: { paymentId: string; facturas: MyFacturas | undefined }) {
  const factura = facturas?.payments.find((each) => each.paymentId === paymentId);
  if (!facturas || !factura) return null;
  if (factura.creditNotes.length === 0) return <FacturaState paymentId={paymentId} facturas={facturas} />;
  return (
    <Stack gap={4}>
      <FacturaState paymentId={paymentId} facturas={facturas} />
      <CreditNotes paymentId={paymentId} notes={factura.creditNotes} />
    </Stack>
  );
}

/** What can be done with a payment's factura now. */
function FacturaState({ paymentId, facturas }: { paymentId: string; facturas: MyFacturas }) {
  const [opened, setOpened] = useState(false);
  const { showAppError } = useErrorModal();
  const factura = facturas.payments.find((each) => each.paymentId === paymentId)!;
  const download = (format: 'pdf' | 'xml') =>
    void downloadFile(`/api/facturas/${paymentId}/${format}`, `factura.${format}`).catch(showAppError);

  switch (factura.state) {
    case 'no_disponible':
      // a payment in dollars while Facturapi is connected: the Admin invoices it by hand when asked
      if (facturas.available) return null;
      return (
        <Text span fz="sm" c="dimmed">
          Facturación no disponible
        </Text>
      );
    case 'en_proceso':
      return (
        <Text span fz="sm">
          En proceso
        </Text>
      );
    case 'global':
      return (
        <Text span fz="sm">
          Incluido en la factura global del mes
        </Text>
      );
    case 'cancelada':
      return (
        <Text span fz="sm">
          Factura cancelada
        </Text>
      );
    case 'cancelacion_pendiente':
      return (
        <Text span fz="sm">
          Cancelación pendiente: el receptor debe aceptarla
        </Text>
      );
    case 'emitida':
    case 'cancelacion_rechazada':
      return (
        <Group gap="xs" wrap="wrap">
          <Text span fz="sm">
            Factura emitida{factura.rfc ? ` a ${factura.rfc}` : ''}
            {factura.state === 'cancelacion_rechazada' ? ' · el receptor rechazó su cancelación' : ''}
          </Text>
          <Button size="compact-xs" variant="light" onClick={() => download('pdf')}>
            Descargar PDF
          </Button>
          <Button size="compact-xs" variant="light" onClick={() => download('xml')}>
            Descargar XML
          </Button>
        </Group>
      );
    case 'solicitable':
      return (
        <Group gap="xs" wrap="wrap">
          <Button size="compact-xs" onClick={() => setOpened(true)}>
            Solicitar factura
          </Button>
          {factura.selfInvoiceUrl && (
            <Anchor href={factura.selfInvoiceUrl} target="_blank" rel="noopener noreferrer" fz="xs">
              Autofacturar
            </Anchor>
          )}
          {opened && (
            <FacturaForm
              paymentId={paymentId}
              saved={facturas.fiscalData}
              opened={opened}
              onClose={() => setOpened(false)}
              onDone={(done) => {
                setOpened(false);
                notifications.show({
                  color: 'green',
                  message: done.state === 'emitida' ? 'Factura emitida.' : 'Tu factura está en proceso.',
                });
              }}
            />
          )}
        </Group>
      );
  }
}

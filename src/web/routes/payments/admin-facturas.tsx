import { Button, Card, Group, Loader, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { cancellationMotiveKeys } from '#shared/facturas/fiscal.rules.ts';
import { formatMoney } from '#shared/payments/payments.rules.ts';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { notify } from '#web/components/console/notify.ts';
import { downloadFile } from '#web/lib/api-client.ts';
import {
  useAdminFacturas,
  useCancelFactura,
  useGlobalInvoices,
  useRunGlobalInvoice,
  type AdminFactura,
} from '#web/features/facturas/facturas.api.ts';
import { FacturaForm } from '#web/features/facturas/components/factura-form.tsx';
import { CreditNotes } from '#web/features/facturas/components/credit-notes.tsx';
import { longDate } from '#web/features/accounts/membership-labels.ts';
import stacked from '#web/components/stacked-table.module.css';

const stateLabels: Record<AdminFactura['state'], string> = {
  no_disponible: 'Sin recibo',
  en_proceso: 'En proceso',
  solicitable: 'Recibo abierto',
  emitida: 'Factura emitida',
  cancelacion_pendiente: 'Cancelación pendiente',
  cancelacion_rechazada: 'Cancelación rechazada por el receptor',
  cancelada: 'Factura cancelada',
  global: 'En la factura global',
};
const motiveLabels: Record<string, string> = {
  '01': '01 · Con errores con relación',
  '02': '02 · Con errores sin relación',
  '03': '03 · No se llevó a cabo la operación',
  '04': '04 · Nominativa relacionada en una global',
};

/**
 * One payment's actions: a factura to any RFC while the receipt is open (or, for an approved payment in dollars,
 * by hand with the day's exchange rate), a cancellation with motive once issued.
 */
function Actions({ payment, available }: { payment: AdminFactura; available: boolean }) {
  const [issuing, setIssuing] = useState(false);
  const [motive, setMotive] = useState<string | null>(null);
  const cancel = useCancelFactura();
  const download = (format: 'pdf' | 'xml') =>
    void downloadFile(`/api/facturas/${payment.paymentId}/${format}`, `factura.${format}`).catch(notify.failed);
  const dollars = payment.currency !== 'MXN';
  if (
    payment.state === 'solicitable' ||
    (available && dollars && payment.state === 'no_disponible' && payment.result === 'COMPLETADO')
  )
    return (
      <>
        <Button size="compact-xs" onClick={() => setIssuing(true)}>
          Emitir factura
        </Button>
        {issuing && (
          <FacturaForm
            admin
            dollars={dollars}
            paymentId={payment.paymentId}
            saved={null}
            opened
            onClose={() => setIssuing(false)}
            onDone={(done) => {
              setIssuing(false);
              notify.saved(done.state === 'emitida' ? 'Factura emitida.' : 'La factura está en proceso.');
            }}
          />
        )}
      </>
    );
  const downloads = (['pdf', 'xml'] as const).map((format) => (
    <Button key={format} size="compact-xs" variant="light" onClick={() => download(format)}>
      {format.toUpperCase()}
    </Button>
  ));
  // a cancellation waiting for the receiver: the factura is still valid, and cannot be cancelled again meanwhile
  if (payment.state === 'cancelacion_pendiente')
    return (
      <Group gap="xs" wrap="wrap">
        {downloads}
      </Group>
    );
  if (payment.state !== 'emitida' && payment.state !== 'cancelacion_rechazada') return null;
  return (
    <Group gap="xs" wrap="wrap">
      {downloads}
      <Select
        size="xs"
        w={230}
        aria-label="Motivo de cancelación"
        placeholder="Motivo de cancelación"
        data={cancellationMotiveKeys.map((value) => ({ value, label: motiveLabels[value]! }))}
        value={motive}
        onChange={setMotive}
      />
      <Button
        size="compact-xs"
        color="red"
        variant="light"
        disabled={!motive}
        loading={cancel.isPending}
        onClick={() =>
          void cancel
            .mutateAsync({ paymentId: payment.paymentId, motive: motive! })
            .then(() => notify.saved('Factura cancelada.'), notify.failed)
        }
      >
        Cancelar factura
      </Button>
    </Group>
  );
}

/** The console's facturas: payments in pesos with their receipt and factura, and the monthly global invoices. */
export function AdminFacturasPage() {
  const list = useAdminFacturas();
  const global = useGlobalInvoices();
  const runGlobal = useRunGlobalInvoice();
  return (
    <AdminPage title="Facturas">
      <Stack gap="lg">
        {list.data && !list.data.available && <Text>Facturación no disponible: falta FACTURAPI_KEY.</Text>}
        <Card withBorder>
          {list.isPending ? (
            <Loader aria-label="Cargando" />
          ) : (
            // six columns do not fit a phone: there each payment is a card, its actions in sight
            <Table.ScrollContainer minWidth={0}>
              <Table striped fz="sm" className={stacked.table}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Fecha</Table.Th>
                    <Table.Th>Concepto</Table.Th>
                    <Table.Th>Importe</Table.Th>
                    <Table.Th>Factura</Table.Th>
                    <Table.Th>RFC</Table.Th>
                    <Table.Th>Acciones</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.data?.payments.map((payment) => (
                    <Table.Tr key={payment.paymentId}>
                      <Table.Td data-label="Fecha">{longDate(payment.occurredAt)}</Table.Td>
                      <Table.Td data-label="Concepto">{payment.description}</Table.Td>
                      <Table.Td data-label="Importe">{formatMoney(payment.amountCents, payment.currency)}</Table.Td>
                      <Table.Td data-label="Factura">
                        {stateLabels[payment.state]}
                        {payment.cancellationMotive ? ` (motivo ${payment.cancellationMotive})` : ''}
                        {payment.error ? ` · ${payment.error}` : ''}
                        <CreditNotes paymentId={payment.paymentId} notes={payment.creditNotes} />
                      </Table.Td>
                      <Table.Td data-label="RFC">{payment.rfc ?? '—'}</Table.Td>
                      <Table.Td data-label="Acciones">
                        <Actions payment={payment} available={list.data.available} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Card>
        <Card withBorder>
          <Group justify="space-between" mb="sm" gap="xs">
            <Title order={2} size="h4">
              Facturas globales (público en general)
            </Title>
            {list.data?.available && (
              <Button
                size="compact-sm"
                variant="light"
                loading={runGlobal.isPending}
                onClick={() => void runGlobal.mutateAsync().then(() => notify.saved('Listo.'), notify.failed)}
              >
                Emitir la del mes pasado
              </Button>
            )}
          </Group>
          <Text size="sm" c="dimmed" mb="sm">
            Un trabajo diario la emite al terminar cada mes con los recibos que nadie facturó.
          </Text>
          {global.data?.invoices.length === 0 && <Text size="sm">Todavía no hay facturas globales.</Text>}
          <Stack gap="xs">
            {global.data?.invoices.map((invoice) => (
              <Group key={invoice.month} gap="sm">
                <Text size="sm">
                  {invoice.month} ·{' '}
                  {invoice.status === 'issued'
                    ? formatMoney(invoice.totalCents ?? 0, 'MXN')
                    : invoice.status === 'none'
                      ? 'Sin recibos abiertos'
                      : 'En proceso'}
                </Text>
                {invoice.status === 'issued' &&
                  (['pdf', 'xml'] as const).map((format) => (
                    <Button
                      key={format}
                      size="compact-xs"
                      variant="light"
                      onClick={() =>
                        void downloadFile(
                          `/api/admin/facturas/global/${invoice.month}/${format}`,
                          `factura-global.${format}`,
                        ).catch(notify.failed)
                      }
                    >
                      {format.toUpperCase()}
                    </Button>
                  ))}
              </Group>
            ))}
          </Stack>
        </Card>
      </Stack>
    </AdminPage>
  );
}

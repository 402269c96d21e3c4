import { Alert, Anchor, Card, Container, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { messages } from '#shared/messages.ts';
import { formatMoney, formatMxn } from '#shared/payments/payments.rules.ts';
import { usePaymentHistory, usePendingPesosPayments, useProfile } from '#web/features/accounts/accounts.api.ts';
import { failedPaymentBanner, longDate, typeLabels } from '#web/features/accounts/membership-labels.ts';
import { paths } from '#web/paths.ts';
import { useMyFacturas } from '#web/features/facturas/facturas.api.ts';
import { FacturaCell } from '#web/features/facturas/components/factura-cell.tsx';
import stacked from '#web/components/stacked-table.module.css';

const resultLabels = {
  COMPLETADO: 'Completado',
  FALLIDO: 'Fallido',
  REEMBOLSADO: 'Reembolsado',
  PENDIENTE: 'Pendiente',
  REEMBOLSO_PARCIAL: 'Reembolso parcial',
} as const;
const statusLabels = {
  BIEN: 'Al corriente',
  POR_TERMINAR: 'Cambio a Básica programado',
  CANCELLED: 'Cancelada',
  FALLIDO: 'Pago fallido',
} as const;

/** /perfil/pago: the subscription's details and the payment history. */
export function ProfilePaymentPage() {
  const profile = useProfile();
  const history = usePaymentHistory();
  const pending = usePendingPesosPayments();
  const facturas = useMyFacturas();
  const membership = profile.data?.membership;
  // the history is the record of what was charged, so the card and the table cannot disagree
  const lastPayment = history.data
    ?.filter((payment) => payment.result === 'COMPLETADO')
    .reduce<(typeof history.data)[number] | undefined>(
      (latest, payment) => (!latest || payment.occurredAt > latest.occurredAt ? payment : latest),
      undefined,
    );

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Title order={1}>Pagos</Title>
        <Anchor component={Link} to={paths.profile} size="sm">
          Volver a Mi CxVet
        </Anchor>
        {membership?.paymentFailed && <Alert color="red">{failedPaymentBanner(membership)}</Alert>}
        <Card withBorder radius="md" padding="lg">
          <Title order={2} size="h3" mb="sm">
            Suscripción
          </Title>
          {!membership ? (
            <Loader size="sm" aria-label="Cargando suscripción" />
          ) : (
            <Stack gap={4}>
              <Text>
                Membresía: <strong>{typeLabels[membership.type]}</strong>
                {membership.type === 'Premium' ? ` · ${membership.annualPlan ? 'Plan anual' : 'Plan mensual'}` : ''}
              </Text>
              <Text>Estado: {statusLabels[membership.paymentStatus]}</Text>
              {lastPayment && <Text>Último pago: {longDate(lastPayment.occurredAt)}</Text>}
              {membership.nextPaymentDate ? (
                <Text>Próxima fecha de pago: {longDate(membership.nextPaymentDate)}</Text>
              ) : membership.isManual && membership.terminationDate ? (
                <Text>Premium hasta: {longDate(membership.terminationDate)} (sin cobro)</Text>
              ) : (
                <Text>Sin cobro programado</Text>
              )}
            </Stack>
          )}
        </Card>
        {pending.data && pending.data.length > 0 ? (
          <Card withBorder radius="md" padding="lg">
            <Title order={2} size="h3" mb="sm">
              Pagos pendientes
            </Title>
            <Stack gap={4}>
              {pending.data.map((payment) => (
                <Text key={payment.paymentId}>
                  {longDate(payment.createdAt)} · {payment.description} · {formatMxn(payment.amountCents)} ·{' '}
                  <strong>Pendiente</strong> (en OXXO o por SPEI: el acceso empieza cuando se confirme el pago)
                </Text>
              ))}
            </Stack>
          </Card>
        ) : null}
        <Card withBorder radius="md" padding="lg">
          <Title order={2} size="h3" mb="sm">
            Historial de pagos
          </Title>
          {history.isPending ? (
            <Loader size="sm" aria-label="Cargando pagos" />
          ) : !history.data || history.data.length === 0 ? (
            <Text>{messages.emptyTable}</Text>
          ) : (
            // five columns do not fit a phone: there each payment is a card, its factura and notes in sight
            <Table.ScrollContainer minWidth={0}>
              <Table striped fz="sm" horizontalSpacing="xs" className={stacked.table}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Fecha</Table.Th>
                    <Table.Th>Concepto</Table.Th>
                    <Table.Th>Importe</Table.Th>
                    <Table.Th>Estado</Table.Th>
                    <Table.Th>Factura</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {history.data.map((payment) => (
                    <Table.Tr key={payment.id}>
                      <Table.Td data-label="Fecha">{longDate(payment.occurredAt)}</Table.Td>
                      <Table.Td data-label="Concepto">{payment.description}</Table.Td>
                      <Table.Td data-label="Importe">{formatMoney(payment.amountCents, payment.currency)}</Table.Td>
                      <Table.Td data-label="Estado">
                        <Text span fz="sm" fw={600}>
                          {resultLabels[payment.result]}
                        </Text>
                      </Table.Td>
                      <Table.Td data-label="Factura">
                        <FacturaCell paymentId={payment.id} facturas={facturas.data} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Card>
      </Stack>
    </Container>
  );
}

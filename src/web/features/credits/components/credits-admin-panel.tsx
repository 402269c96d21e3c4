import { Badge, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import dayjs from 'dayjs';
import { useState } from 'react';
import type { AdminCreditRow } from '#shared/credits/credits.schemas.ts';
import { creditRecordsQuerySchema, revokeCreditInputSchema } from '#shared/credits/credits.schemas.ts';
import { formatHours } from '#shared/credits/credits.rules.ts';
import { messages } from '#shared/messages.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { RevokeModal } from '#web/components/console/revoke-modal.tsx';
import stacked from '#web/components/stacked-table.module.css';
import {
  downloadCreditRecords,
  useItemCredits,
  useRevokeCredit,
  type CreditTarget,
} from '#web/features/credits/credits.api.ts';

const today = () => dayjs().format('YYYY-MM-DD');
type Fields = Partial<Record<string, string>>;

function fieldErrors(issues: { path: PropertyKey[]; message: string }[]): Fields {
  return Object.fromEntries(issues.map((issue) => [String(issue.path[0]), issue.message]));
}

/** A diploma's or procedure's credited members, their revocation, and the records an accrediting body's audit asks for. */
export function CreditsAdminPanel({ target }: { target: CreditTarget }) {
  const credits = useItemCredits(target);
  const revoke = useRevokeCredit(target);
  const { showAppError } = useErrorModal();
  const [revoking, setRevoking] = useState<AdminCreditRow | null>(null);
  const [period, setPeriod] = useState({ from: `${dayjs().year()}-01-01`, to: today() });
  const [periodErrors, setPeriodErrors] = useState<Fields>({});
  const [downloading, setDownloading] = useState(false);

  async function exportRecords() {
    const parsed = creditRecordsQuerySchema.safeParse(period);
    if (!parsed.success) return setPeriodErrors(fieldErrors(parsed.error.issues));
    setPeriodErrors({});
    setDownloading(true);
    try {
      await downloadCreditRecords(target, parsed.data);
    } catch (error) {
      showAppError(error);
    } finally {
      setDownloading(false);
    }
  }

  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={2} fz="lg">
          Créditos otorgados
        </Title>
        {credits.isPending ? (
          <Text c="dimmed">Cargando…</Text>
        ) : credits.isError || credits.data.length === 0 ? (
          <Text c="dimmed">{messages.emptyTable}</Text>
        ) : (
          // a phone shows one card per row, its 'Revocar' in sight (stacked-table)
          <Table.ScrollContainer minWidth={0}>
            <Table striped withTableBorder aria-label="Créditos otorgados" className={stacked.table}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Nombre</Table.Th>
                  <Table.Th>Cédula</Table.Th>
                  <Table.Th>Horas</Table.Th>
                  <Table.Th>Otorgado</Table.Th>
                  <Table.Th>Estado</Table.Th>
                  <Table.Th>Acción</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {credits.data.map((credit) => (
                  <Table.Tr key={credit.id}>
                    <Table.Td data-label="Nombre">{credit.holderName}</Table.Td>
                    <Table.Td data-label="Cédula">{credit.licenceNumber || '—'}</Table.Td>
                    <Table.Td data-label="Horas">{formatHours(credit.hours)}</Table.Td>
                    <Table.Td data-label="Otorgado">{dayjs(credit.earnedAt).format('DD/MM/YYYY')}</Table.Td>
                    <Table.Td data-label="Estado">
                      {credit.revokedAt ? (
                        <Stack gap={2}>
                          <Badge color="red" variant="light">
                            Revocado el {dayjs(credit.revokedAt).format('DD/MM/YYYY')}
                          </Badge>
                          {credit.revokeReason ? <Text size="xs">{credit.revokeReason}</Text> : null}
                        </Stack>
                      ) : (
                        <Badge color="teal" variant="light">
                          Vigente
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td data-label="Acción">
                      {credit.revokedAt ? null : (
                        <Button
                          size="compact-sm"
                          color="red.9"
                          variant="outline"
                          aria-label={`Revocar crédito de ${credit.holderName}`}
                          onClick={() => setRevoking(credit)}
                        >
                          Revocar
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Title order={3} fz="md">
          Registros para auditoría
        </Title>
        <Text size="sm" c="dimmed">
          Lista de asistencia con la prueba de cada miembro (video visto, exámenes) y sus evaluaciones del curso. Se
          conservan cuatro años, con el nombre, aunque el miembro elimine su cuenta.
        </Text>
        <Group align="flex-end" wrap="wrap">
          <TextInput
            type="date"
            label="Desde"
            value={period.from}
            onChange={(event) => setPeriod({ ...period, from: event.currentTarget.value })}
            error={periodErrors.from}
          />
          <TextInput
            type="date"
            label="Hasta"
            value={period.to}
            onChange={(event) => setPeriod({ ...period, to: event.currentTarget.value })}
            error={periodErrors.to}
          />
          <Button variant="light" loading={downloading} onClick={() => void exportRecords()}>
            Exportar registros (xlsx)
          </Button>
        </Group>
      </Stack>
      <RevokeModal
        title="Revocar crédito"
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        schema={revokeCreditInputSchema}
        onRevoke={(revocation) => revoke.mutateAsync({ creditId: revoking!.id, ...revocation })}
      >
        El crédito de {revoking?.holderName} deja de contar en sus totales y su constancia aparece como revocada en la
        página de verificación.
      </RevokeModal>
    </Paper>
  );
}

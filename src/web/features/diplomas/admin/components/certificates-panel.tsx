import { Anchor, Badge, Button, Paper, Stack, Table, Text, Title } from '@mantine/core';
import dayjs from 'dayjs';
import { useState } from 'react';
import type { z } from 'zod';
import { adminCertificateRowSchema, revokeCertificateInputSchema } from '#shared/diplomas/diplomas.schemas.ts';
import { messages } from '#shared/messages.ts';
import { RevokeModal } from '#web/components/console/revoke-modal.tsx';
import stacked from '#web/components/stacked-table.module.css';
import { useDiplomaCertificates, useRevokeCertificate } from '#web/features/diplomas/admin/diplomas.admin.api.ts';

type CertificateRow = z.infer<typeof adminCertificateRowSchema>;

/** Issued certificates of a diploma; the Admin can revoke one with a reason (its folio is never given again). */
export function CertificatesPanel({ diplomaId }: { diplomaId: string }) {
  const certificates = useDiplomaCertificates(diplomaId);
  const revoke = useRevokeCertificate(diplomaId);
  const [revoking, setRevoking] = useState<CertificateRow | null>(null);

  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={2} fz="lg">
          Constancias emitidas
        </Title>
        {certificates.isPending ? (
          <Text c="dimmed">Cargando…</Text>
        ) : certificates.isError || certificates.data.length === 0 ? (
          <Text c="dimmed">{messages.emptyTable}</Text>
        ) : (
          // a phone shows one card per row, its 'Revocar' in sight (stacked-table)
          <Table.ScrollContainer minWidth={0}>
            <Table striped withTableBorder aria-label="Constancias emitidas" className={stacked.table}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Folio</Table.Th>
                  <Table.Th>Nombre</Table.Th>
                  <Table.Th>Emitida</Table.Th>
                  <Table.Th>Estado</Table.Th>
                  <Table.Th>Acción</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {certificates.data.map((certificate) => (
                  <Table.Tr key={certificate.id}>
                    <Table.Td data-label="Folio">
                      <Anchor
                        href={`/certificados/${encodeURIComponent(certificate.verificationCode)}`}
                        target="_blank"
                        rel="noopener"
                        size="sm"
                      >
                        {certificate.folio}
                      </Anchor>
                    </Table.Td>
                    <Table.Td data-label="Nombre">{certificate.holderName}</Table.Td>
                    <Table.Td data-label="Emitida">{dayjs(certificate.issuedAt).format('DD/MM/YYYY')}</Table.Td>
                    <Table.Td data-label="Estado">
                      {certificate.isRevoked ? (
                        <Stack gap={2}>
                          <Badge color="red" variant="light">
                            Revocada
                          </Badge>
                          {certificate.revokeReason ? <Text size="xs">{certificate.revokeReason}</Text> : null}
                        </Stack>
                      ) : (
                        <Badge color="teal" variant="light">
                          Válida
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td data-label="Acción">
                      {certificate.isRevoked ? null : (
                        <Button
                          size="compact-sm"
                          // red.9 on white keeps 4.5:1 (axe color-contrast); the default red.6 is about 3.3:1
                          color="red.9"
                          variant="outline"
                          onClick={() => setRevoking(certificate)}
                          aria-label={`Revocar constancia ${certificate.folio}`}
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
      </Stack>
      <RevokeModal
        title="Revocar constancia"
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        schema={revokeCertificateInputSchema}
        onRevoke={(revocation) => revoke.mutateAsync({ certificateId: revoking!.id, ...revocation })}
      >
        La constancia con folio {revoking?.folio} de {revoking?.holderName} dejará de ser válida en su página de
        verificación. El folio no se vuelve a asignar.
      </RevokeModal>
    </Paper>
  );
}

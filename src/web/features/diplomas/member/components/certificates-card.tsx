import { Anchor, Badge, Card, Loader, Table, Text, Title } from '@mantine/core';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import stacked from '#web/components/stacked-table.module.css';
import { href } from '#web/paths.ts';
import { certificatePdfUrl, credentialJsonUrl, useMyCertificates } from '#web/features/diplomas/member/diplomas.api.ts';

/** The profile's 'Diplomados y constancias' card: each certificate with its PDF and public verification page. */
export function CertificatesCard() {
  const certificates = useMyCertificates();
  if (certificates.isPending) return <Loader size="sm" aria-label="Cargando constancias" />;
  if (!certificates.data || certificates.data.length === 0) return null;
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} size="h3" mb="sm">
        Diplomados y constancias
      </Title>
      <Table fz="sm" horizontalSpacing="xs" className={stacked.table}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Diplomado</Table.Th>
            <Table.Th>Folio</Table.Th>
            <Table.Th>Fecha</Table.Th>
            <Table.Th>Constancia</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {certificates.data.map((certificate) => (
            <Table.Tr key={certificate.id}>
              <Table.Td data-label="Diplomado">{certificate.diplomaTitle}</Table.Td>
              <Table.Td data-label="Folio">{certificate.folio}</Table.Td>
              <Table.Td data-label="Fecha">
                {dayjs(certificate.issuedAt).locale('es').format('D [de] MMMM [de] YYYY')}
              </Table.Td>
              <Table.Td data-label="Constancia">
                {certificate.isRevoked ? (
                  <Badge color="red" variant="light">
                    Revocada
                  </Badge>
                ) : (
                  <Text size="sm">
                    <Anchor href={certificatePdfUrl(certificate.diplomaId)}>PDF</Anchor> ·{' '}
                    <Anchor href={credentialJsonUrl(certificate.verificationCode)} download="credential.json">
                      Descargar credencial (JSON)
                    </Anchor>{' '}
                    ·{' '}
                    <Anchor component={Link} to={href.certificateVerification(certificate.verificationCode)}>
                      Verificar
                    </Anchor>
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

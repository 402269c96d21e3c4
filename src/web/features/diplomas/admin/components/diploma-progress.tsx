import { Badge, Table, Text } from '@mantine/core';
import { examStatusText, progressFilterText } from '#shared/progress/progress.rules.ts';
import type { ProgressFilter } from '#shared/progress/progress.schemas.ts';
import { EmailText } from '#web/components/email-text.tsx';
import { ProgressReport, useProgressQuery } from '#web/components/progress-report.tsx';
import stacked from '#web/components/stacked-table.module.css';
import { diplomaProgressExportHref, useDiplomaProgress, type UserListApi } from '../diplomas.admin.api.ts';

const progressColor: Record<ProgressFilter, string> = { notStarted: 'gray', inProgress: 'blue', finished: 'teal' };

/** 'Progreso del diplomado': per member, videos completed, each exam's state and score, and the certificate. */
export function DiplomaProgress({ scope, id }: { scope: UserListApi; id: string }) {
  const state = useProgressQuery();
  const progress = useDiplomaProgress(scope, id, state.query);
  const data = progress.data;
  const { page: _page, ...filters } = state.query;
  return (
    <ProgressReport
      label="Progreso del diplomado"
      figures={data}
      state={state}
      exportHref={diplomaProgressExportHref(scope, id, filters)}
    >
      {progress.isError ? <Text c="red">No se pudo cargar el progreso del diplomado.</Text> : null}
      {data && data.rows.length === 0 ? <Text c="dimmed">Ningún miembro coincide.</Text> : null}
      {data && data.rows.length > 0 ? (
        <Table.ScrollContainer minWidth={0}>
          <Table striped withTableBorder aria-label="Progreso por miembro" className={stacked.table}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Nombre</Table.Th>
                <Table.Th>Correo</Table.Th>
                <Table.Th>Estado</Table.Th>
                <Table.Th>Videos completados</Table.Th>
                {data.exams.map((exam) => (
                  <Table.Th key={exam.id}>{exam.title}</Table.Th>
                ))}
                <Table.Th>Certificado</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.rows.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td data-label="Nombre">{row.name}</Table.Td>
                  <Table.Td data-label="Correo">
                    <EmailText email={row.email} />
                  </Table.Td>
                  <Table.Td data-label="Estado">
                    <Badge color={progressColor[row.status]} variant="light" tt="none">
                      {progressFilterText[row.status]}
                    </Badge>
                  </Table.Td>
                  <Table.Td data-label="Videos completados">
                    {row.videosCompleted} de {data.videoCount}
                  </Table.Td>
                  {row.exams.map((exam, index) => (
                    <Table.Td key={data.exams[index]!.id} data-label={data.exams[index]!.title}>
                      {examStatusText[exam.status]}
                      {exam.scorePercent === null ? '' : ` (${exam.scorePercent} %)`}
                    </Table.Td>
                  ))}
                  <Table.Td data-label="Certificado">
                    {row.certificate
                      ? `Folio ${row.certificate.folio}, ${new Date(row.certificate.issuedAt).toLocaleDateString('es-MX')}`
                      : '—'}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
    </ProgressReport>
  );
}

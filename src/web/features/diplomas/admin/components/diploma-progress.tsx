import { Text } from '@mantine/core';
import { examStatusText } from '#shared/progress/progress.rules.ts';
import { ProgressReport, ProgressTable, useProgressQuery } from '#web/components/progress-report.tsx';
import { diplomaProgressExportHref, useDiplomaProgress, type UserListApi } from '../diplomas.admin.api.ts';

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
      {data ? (
        <ProgressTable
          rows={data.rows}
          columns={[
            {
              key: 'videos',
              label: 'Videos completados',
              cell: (row) => `${row.videosCompleted} de ${data.videoCount}`,
            },
            ...data.exams.map((exam, index) => ({
              key: exam.id,
              label: exam.title,
              cell: (row: (typeof data.rows)[number]) => {
                const result = row.exams[index]!;
                return `${examStatusText[result.status]}${result.scorePercent === null ? '' : ` (${result.scorePercent} %)`}`;
              },
            })),
            {
              key: 'certificate',
              label: 'Certificado',
              cell: (row) =>
                row.certificate
                  ? `Folio ${row.certificate.folio}, ${new Date(row.certificate.issuedAt).toLocaleDateString('es-MX')}`
                  : '—',
            },
          ]}
        />
      ) : null}
    </ProgressReport>
  );
}

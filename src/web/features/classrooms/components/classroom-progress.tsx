import { Text } from '@mantine/core';
import { ProgressReport, ProgressTable, useProgressQuery } from '#web/components/progress-report.tsx';
import { classroomProgressExportHref, useClassroomProgress } from '../classrooms.api.ts';

const dateTime = (value: string) =>
  new Date(value).toLocaleString('es-MX', { dateStyle: 'medium', timeStyle: 'short' });

/** 'Progreso del aula': each member by video (share watched), a page at a time, with its xlsx. */
export function ClassroomProgress({ scope, id }: { scope: 'admin' | 'classroom-admin'; id: string }) {
  const state = useProgressQuery();
  const progress = useClassroomProgress(scope, id, state.query);
  const data = progress.data;
  const { page: _page, ...filters } = state.query;
  return (
    <ProgressReport
      label="Progreso del aula"
      figures={data}
      state={state}
      exportHref={classroomProgressExportHref(scope, id, filters)}
    >
      {progress.isError ? <Text c="red">No se pudo cargar el progreso del aula.</Text> : null}
      {data ? (
        <ProgressTable
          rows={data.rows}
          columns={[
            {
              key: 'watched',
              label: 'Videos vistos',
              cell: (row) => `${row.watchedCount} de ${data.videos.length}`,
            },
            {
              key: 'activity',
              label: 'Última actividad',
              cell: (row) => (row.lastActivityAt ? dateTime(row.lastActivityAt) : '—'),
            },
            ...data.videos.map((video, index) => ({
              key: video.id,
              label: video.name,
              cell: (row: (typeof data.rows)[number]) => {
                const watched = row.videos[index]!;
                return watched.watched ? 'Visto' : `${watched.watchedPercent} %`;
              },
            })),
          ]}
        />
      ) : null}
    </ProgressReport>
  );
}

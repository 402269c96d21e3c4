import { Badge, Table, Text } from '@mantine/core';
import { progressFilterText } from '#shared/progress/progress.rules.ts';
import type { ProgressFilter } from '#shared/progress/progress.schemas.ts';
import { EmailText } from '#web/components/email-text.tsx';
import { ProgressReport, useProgressQuery } from '#web/components/progress-report.tsx';
import stacked from '#web/components/stacked-table.module.css';
import { classroomProgressExportHref, useClassroomProgress } from '../classrooms.api.ts';

const progressColor: Record<ProgressFilter, string> = {
  notStarted: 'gray',
  inProgress: 'blue',
  finished: 'teal',
};

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
      {data && data.rows.length === 0 ? <Text c="dimmed">Ningún miembro coincide.</Text> : null}
      {data && data.rows.length > 0 ? (
        <Table.ScrollContainer minWidth={0}>
          <Table striped withTableBorder aria-label="Progreso por miembro" className={stacked.table}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Nombre</Table.Th>
                <Table.Th>Correo</Table.Th>
                <Table.Th>Estado</Table.Th>
                <Table.Th>Videos vistos</Table.Th>
                <Table.Th>Última actividad</Table.Th>
                {data.videos.map((video) => (
                  <Table.Th key={video.id}>{video.name}</Table.Th>
                ))}
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
                  <Table.Td data-label="Videos vistos">
                    {row.watchedCount} de {data.videos.length}
                  </Table.Td>
                  <Table.Td data-label="Última actividad">
                    {row.lastActivityAt ? dateTime(row.lastActivityAt) : '—'}
                  </Table.Td>
                  {row.videos.map((video, index) => (
                    <Table.Td key={data.videos[index]!.id} data-label={data.videos[index]!.name}>
                      {video.watched ? 'Visto' : `${video.watchedPercent} %`}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
    </ProgressReport>
  );
}

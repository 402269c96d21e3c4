import {
  Badge,
  Button,
  Group,
  Pagination,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { useState, type ReactNode } from 'react';
import type { ProgressFilter, ProgressQuery, ProgressTotals } from '#shared/progress/progress.schemas.ts';
import { progressFilterText } from '#shared/progress/progress.rules.ts';
import { EmailText } from '#web/components/email-text.tsx';
import stacked from '#web/components/stacked-table.module.css';

type Figures = { totals: ProgressTotals; matching: number; page: number; pageSize: number };

/** The page, filter and search of a progress report, the search sent once typing pauses. */
export function useProgressQuery() {
  const [filter, setFilter] = useState<ProgressFilter | undefined>(undefined);
  const [typed, setTyped] = useState('');
  const [search] = useDebouncedValue(typed.trim(), 300);
  // a page belongs to one filter and search: changing either goes back to the first
  const key = `${filter ?? ''}\n${search}`;
  const [paging, setPaging] = useState({ key, page: 1 });
  const page = paging.key === key ? paging.page : 1;
  const setPage = (next: number) => setPaging({ key, page: next });
  const query: ProgressQuery = { page, filter, search: search || undefined };
  return { query, setPage, filter, setFilter, typed, setTyped };
}

type Props = {
  label: string;
  figures: Figures | undefined;
  state: ReturnType<typeof useProgressQuery>;
  exportHref: string;
  children: ReactNode;
};

/** Totals on top, the status filter, the search, the rows given as children, pages and the xlsx download. */
export function ProgressReport({ label, figures, state, exportHref, children }: Props) {
  const totals = figures?.totals;
  // four choices do not fit a phone's width side by side
  const phone = useMediaQuery('(max-width: 36em)');
  const pages = figures ? Math.max(1, Math.ceil(figures.matching / figures.pageSize)) : 1;
  const figure = (title: string, value: number | undefined) => (
    <Paper withBorder p="sm" key={title}>
      <Text size="sm" c="dimmed">
        {title}
      </Text>
      <Text fw={700} fz="xl">
        {value ?? '—'}
      </Text>
    </Paper>
  );
  return (
    <Stack gap="md" component="section" aria-label={label}>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        {figure('Miembros', totals?.members)}
        {figure(progressFilterText.notStarted, totals?.notStarted)}
        {figure(progressFilterText.inProgress, totals?.inProgress)}
        {figure(progressFilterText.finished, totals?.finished)}
      </SimpleGrid>
      <Group justify="space-between" align="end" wrap="wrap">
        <SegmentedControl
          aria-label="Filtrar por avance"
          value={state.filter ?? 'all'}
          onChange={(value) => state.setFilter(value === 'all' ? undefined : (value as ProgressFilter))}
          data={[
            { value: 'all', label: 'Todos' },
            { value: 'notStarted', label: progressFilterText.notStarted },
            { value: 'inProgress', label: progressFilterText.inProgress },
            { value: 'finished', label: progressFilterText.finished },
          ]}
          orientation={phone ? 'vertical' : 'horizontal'}
          fullWidth={phone}
        />
        <Group gap="xs" wrap="wrap" style={{ flexGrow: 1, justifyContent: 'flex-end' }}>
          <TextInput
            aria-label="Buscar por nombre o correo"
            placeholder="Buscar por nombre o correo"
            value={state.typed}
            onChange={(event) => state.setTyped(event.currentTarget.value)}
            style={{ flexGrow: 1, maxWidth: 320 }}
          />
          <Button component="a" variant="default" href={exportHref} download>
            Descargar xlsx
          </Button>
        </Group>
      </Group>
      {figures ? (
        <Text size="sm" c="dimmed" aria-live="polite">
          {figures.matching === 1 ? '1 miembro' : `${figures.matching} miembros`}
        </Text>
      ) : null}
      {children}
      {pages > 1 ? (
        <Group justify="center">
          <Pagination
            total={pages}
            value={state.query.page}
            onChange={state.setPage}
            getControlProps={(control) => ({
              'aria-label':
                control === 'previous' ? 'Página anterior' : control === 'next' ? 'Página siguiente' : control,
            })}
          />
        </Group>
      ) : null}
    </Stack>
  );
}

const progressColor: Record<ProgressFilter, string> = { notStarted: 'gray', inProgress: 'blue', finished: 'teal' };

type MemberRow = { id: string; name: string; email: string; status: ProgressFilter };

/** One column of a report's own after the member's name, e-mail and state; `label` also heads the cell on a phone. */
type ProgressColumn<Row> = { key: string; label: string; cell: (row: Row) => ReactNode };

/** A report's page of members: name, e-mail and state, then the report's own columns; a line when none matches. */
export function ProgressTable<Row extends MemberRow>({
  rows,
  columns,
}: {
  rows: Row[];
  columns: ProgressColumn<Row>[];
}) {
  if (rows.length === 0) return <Text c="dimmed">Ningún miembro coincide.</Text>;
  return (
    <Table.ScrollContainer minWidth={0}>
      <Table striped withTableBorder aria-label="Progreso por miembro" className={stacked.table}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Nombre</Table.Th>
            <Table.Th>Correo</Table.Th>
            <Table.Th>Estado</Table.Th>
            {columns.map((column) => (
              <Table.Th key={column.key}>{column.label}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
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
              {columns.map((column) => (
                <Table.Td key={column.key} data-label={column.label}>
                  {column.cell(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

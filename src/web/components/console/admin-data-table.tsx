import 'mantine-datatable/styles.css';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { adminPageSize } from '#shared/records.schemas.ts';
import { foldForSearch } from '#shared/text.ts';
import { messages } from '#shared/messages.ts';
import classes from './admin-data-table.module.css';

export type SortState = { column: string; direction: 'asc' | 'desc' };

type CommonProps<T> = {
  /** Accessible name of the table. */
  label: string;
  columns: DataTableColumn<T>[];
  /** Where a row leads: its `column` cell becomes a link (keyboard), and a click anywhere on the row follows it. */
  rowLink?: { href: (record: T) => string; column: string };
  fetching?: boolean;
};

/** The row's link cell, so every table opens its records by keyboard the same way. */
function withRowLink<T>(columns: DataTableColumn<T>[], rowLink: CommonProps<T>['rowLink']): DataTableColumn<T>[] {
  if (!rowLink) return columns;
  return columns.map((column) => {
    if (column.accessor !== rowLink.column) return column;
    const content = (record: T, index: number) =>
      column.render
        ? column.render(record, index)
        : String((record as Record<string, unknown>)[column.accessor as string] ?? '');
    return {
      ...column,
      render: (record: T, index: number) => (
        <Link to={rowLink.href(record)} className={classes.rowLink} onClick={(event) => event.stopPropagation()}>
          {content(record, index)}
        </Link>
      ),
    };
  });
}

/** Rows the server already searched, sorted and cut into pages. */
type ServerProps<T> = CommonProps<T> & {
  mode: 'server';
  records: T[];
  total: number;
  page: number;
  onPageChange: (page: number) => void;
  sort: SortState;
  onSortChange: (sort: SortState) => void;
  search: string;
  onSearchChange: (search: string) => void;
};

/** Small lists loaded whole: searched, sorted and paged here. */
type ClientProps<T> = CommonProps<T> & {
  mode: 'client';
  records: T[];
  initialSort: SortState;
  /** The text each row is searched by. */
  searchText: (record: T) => string;
  sortValue?: (record: T, column: string) => string | number;
};

function Pager({ page, total, onPageChange }: { page: number; total: number; onPageChange: (page: number) => void }) {
  const from = total === 0 ? 0 : (page - 1) * adminPageSize + 1;
  const to = Math.min(page * adminPageSize, total);
  const lastPage = Math.max(1, Math.ceil(total / adminPageSize));
  return (
    <Group justify="space-between" gap="sm">
      <Text size="sm" aria-live="polite">
        Mostrando del {from} al {to} de {total} resultados
      </Text>
      <Group gap="xs">
        <Button variant="default" size="xs" disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
          Anterior
        </Button>
        <Text size="sm">
          Página {page} de {lastPage}
        </Text>
        <Button variant="default" size="xs" disabled={page >= lastPage} onClick={() => onPageChange(page + 1)}>
          Siguiente
        </Button>
      </Group>
    </Group>
  );
}

function Table<T>(props: CommonProps<T> & { records: T[]; sort: SortState; onSortChange: (sort: SortState) => void }) {
  const navigate = useNavigate();
  const { rowLink } = props;
  const columns = useMemo(() => withRowLink(props.columns, rowLink), [props.columns, rowLink]);
  const sortStatus: DataTableSortStatus<T> = { columnAccessor: props.sort.column, direction: props.sort.direction };
  return (
    <DataTable<T>
      aria-label={props.label}
      withTableBorder
      borderRadius="sm"
      striped
      highlightOnHover
      minHeight={props.records.length === 0 ? 160 : undefined}
      records={props.records}
      columns={columns}
      idAccessor={'id' as never}
      fetching={props.fetching}
      noRecordsText={messages.emptyTable}
      sortStatus={sortStatus}
      onSortStatusChange={(status) =>
        props.onSortChange({ column: String(status.columnAccessor), direction: status.direction })
      }
      onRowClick={rowLink ? ({ record }) => void navigate(rowLink.href(record)) : undefined}
    />
  );
}

function SearchBox({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <Group justify="space-between" align="end" gap="sm">
      <Text size="sm" c="dimmed">
        {adminPageSize} registros por página
      </Text>
      <TextInput
        label="Buscar"
        type="search"
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        w={260}
        maw="100%"
      />
    </Group>
  );
}

/** The console's one table: sortable columns, a Buscar box, 12 rows a page and Spanish labels. */
export function AdminDataTable<T>(props: ServerProps<T> | ClientProps<T>) {
  if (props.mode === 'server') {
    return (
      <Stack gap="sm">
        <SearchBox value={props.search} onChange={props.onSearchChange} />
        <Table {...props} sort={props.sort} onSortChange={props.onSortChange} />
        <Pager page={props.page} total={props.total} onPageChange={props.onPageChange} />
      </Stack>
    );
  }
  return <ClientTable {...props} />;
}

function ClientTable<T>(props: ClientProps<T>) {
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState(props.initialSort);
  const [page, setPage] = useState(1);
  const { records, searchText, sortValue } = props;

  const filtered = useMemo(() => {
    const needle = foldForSearch(search.trim());
    const matching = needle ? records.filter((record) => foldForSearch(searchText(record)).includes(needle)) : records;
    const valueOf = (record: T) =>
      sortValue ? sortValue(record, sort.column) : String((record as Record<string, unknown>)[sort.column] ?? '');
    const sorted = [...matching].sort((a, b) => {
      const [x, y] = [valueOf(a), valueOf(b)];
      const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), 'es');
      return sort.direction === 'asc' ? order : -order;
    });
    return sorted;
  }, [records, search, sort, searchText, sortValue]);

  const lastPage = Math.max(1, Math.ceil(filtered.length / adminPageSize));
  const current = Math.min(page, lastPage);
  const pageRecords = filtered.slice((current - 1) * adminPageSize, current * adminPageSize);

  return (
    <Stack gap="sm">
      <SearchBox
        value={search}
        onChange={(value) => {
          setSearch(value);
          setPage(1);
        }}
      />
      <Table {...props} records={pageRecords} sort={sort} onSortChange={setSort} />
      <Pager page={current} total={filtered.length} onPageChange={setPage} />
    </Stack>
  );
}

/**
 * The state of a server-paged table: the search (settled before it becomes a query), the sort and the
 * page, which goes back to 1 whenever the search or the sort changes. `props` spreads into a
 * `<AdminDataTable mode="server">`; `query` is what the list endpoint takes.
 */
export function useServerTable<Column extends string>(
  initialSort: { column: Column; direction: 'asc' | 'desc' },
  delay = 300,
) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), delay);
  const [sort, setSort] = useState<SortState>(initialSort);
  const [page, setPage] = useState(1);
  return {
    query: { q: debounced || undefined, sort: sort.column as Column, dir: sort.direction, page },
    props: {
      page,
      onPageChange: setPage,
      sort,
      onSortChange: (next: SortState) => {
        setSort(next);
        setPage(1);
      },
      search,
      onSearchChange: (value: string) => {
        setSearch(value);
        setPage(1);
      },
    },
    resetPage: () => setPage(1),
  };
}

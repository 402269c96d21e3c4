import 'mantine-datatable/styles.css';
import { Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useMemo, useState } from 'react';
import { countOf, foldForSearch } from '#shared/text.ts';
import { messages } from '#shared/messages.ts';

type Props<T extends { id: string }> = {
  /** Accessible name of the table. */
  label: string;
  records: T[];
  columns: DataTableColumn<T>[];
  selectedIds: string[];
  onChange: (ids: string[]) => void;
  /** The text the search box matches, always the same for one record (it is folded once and kept). */
  searchText: (record: T) => string;
  fetching?: boolean;
  pageSize?: number;
};

/**
 * Each record's folded search text, computed once per record object (the query's data keeps them): the filter runs
 * again on every click.
 */
const foldedText = new WeakMap<object, string>();
function folded<T extends object>(record: T, searchText: (record: T) => string): string {
  let text = foldedText.get(record);
  if (text === undefined) {
    text = foldForSearch(searchText(record));
    foldedText.set(record, text);
  }
  return text;
}

/** A checkbox table with a search box, 'show only selected' and a select-all header (of the rows shown). */
export function SelectableTable<T extends { id: string }>(props: Props<T>) {
  const { records, selectedIds, onChange, searchText, pageSize = 25 } = props;
  const [search, setSearch] = useState('');
  const [onlySelected, setOnlySelected] = useState(false);
  const [page, setPage] = useState(1);
  const selected = useMemo(() => new Set(selectedIds), [selectedIds]);

  const filtered = useMemo(() => {
    const needle = foldForSearch(search.trim());
    return records.filter(
      (record) =>
        (!onlySelected || selected.has(record.id)) && (!needle || folded(record, searchText).includes(needle)),
    );
  }, [records, search, onlySelected, selected, searchText]);
  const lastPage = Math.max(1, Math.ceil(filtered.length / pageSize));
  const current = Math.min(page, lastPage);
  const shown = filtered.slice((current - 1) * pageSize, current * pageSize);

  return (
    <Stack gap="xs">
      <Group justify="space-between" align="end" gap="sm">
        <TextInput
          label="Buscar"
          type="search"
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          w={260}
          maw="100%"
        />
        <Group gap="md">
          <Checkbox
            label="Mostrar solo seleccionados"
            checked={onlySelected}
            onChange={(event) => setOnlySelected(event.currentTarget.checked)}
          />
          <Text size="sm" aria-live="polite">
            {countOf(selected.size, 'seleccionado', 'seleccionados')}
          </Text>
        </Group>
      </Group>
      <DataTable<T>
        aria-label={props.label}
        withTableBorder
        borderRadius="sm"
        striped
        minHeight={shown.length === 0 ? 140 : undefined}
        records={shown}
        columns={props.columns}
        fetching={props.fetching}
        noRecordsText={messages.emptyTable}
        selectedRecords={shown.filter((record) => selected.has(record.id))}
        onSelectedRecordsChange={(rows) => {
          const next = new Set(selected);
          for (const record of shown) next.delete(record.id);
          for (const record of rows) next.add(record.id);
          onChange([...next]);
        }}
        getRecordSelectionCheckboxProps={(record) => ({
          'aria-label': `Seleccionar ${searchText(record).split('\n')[0]}`,
        })}
        allRecordsSelectionCheckboxProps={{ 'aria-label': 'Seleccionar todos' }}
        totalRecords={filtered.length}
        recordsPerPage={pageSize}
        page={current}
        onPageChange={setPage}
        paginationText={({ from, to, totalRecords }) => `Mostrando del ${from} al ${to} de ${totalRecords}`}
      />
    </Stack>
  );
}

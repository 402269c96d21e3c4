import { Select, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useState } from 'react';

/** One account (or any record) the picker offers: `value` is what the form keeps, `label` what the Admin reads. */
export type SearchOption = { value: string; label: string };

type ServerSearchSelectProps<TQueryFnData, TData, TQueryKey extends QueryKey> = Omit<
  SelectProps,
  | 'data'
  | 'value'
  | 'defaultValue'
  | 'onChange'
  | 'searchable'
  | 'searchValue'
  | 'defaultSearchValue'
  | 'onSearchChange'
  | 'filter'
  | 'nothingFoundMessage'
> & {
  /** The server's search for the typed text: trimmed, settled, and '' while the field shows the chosen option. */
  query: (text: string) => UseQueryOptions<TQueryFnData, Error, TData, TQueryKey>;
  /** The options in what the server answered. */
  toOptions: (data: TData) => SearchOption[];
  value: SearchOption | null;
  onChange: (option: SearchOption | null) => void;
  /** Shown when the server found nothing ('Buscando…' while it searches). */
  nothingFoundMessage?: string;
  /** The search failed (the request, not an empty answer). */
  onSearchError?: () => void;
};

/** A Select whose options the server searches as the Admin types; the chosen option stays listed. */
export function ServerSearchSelect<TQueryFnData, TData, TQueryKey extends QueryKey>({
  query,
  toOptions,
  value,
  onChange,
  nothingFoundMessage = 'Sin resultados',
  onSearchError,
  ...selectProps
}: ServerSearchSelectProps<TQueryFnData, TData, TQueryKey>) {
  const [search, setSearch] = useState(value?.label ?? '');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  // once chosen, the field shows the option's label: no need to search for it
  const found = useQuery({ ...query(search === value?.label ? '' : debounced), placeholderData: keepPreviousData });
  const reportError = useEffectEvent(() => onSearchError?.());
  useEffect(() => {
    if (found.isError) reportError();
  }, [found.isError]);

  const options = found.data === undefined ? [] : toOptions(found.data);
  if (value && !options.some((option) => option.value === value.value)) options.unshift(value);
  return (
    <Select
      clearable
      {...selectProps}
      searchable
      data={options}
      // the server already filtered
      filter={({ options: all }) => all}
      searchValue={search}
      onSearchChange={setSearch}
      value={value?.value ?? null}
      onChange={(_, option) => onChange(option ? { value: option.value, label: option.label } : null)}
      nothingFoundMessage={found.isFetching ? 'Buscando…' : nothingFoundMessage}
    />
  );
}

import { Select } from '@mantine/core';
import { countries } from '#shared/accounts/countries.ts';

const data = [...countries];

type Props = { value: string; onChange: (value: string) => void; onBlur?: () => void; error?: string };

export function CountrySelect({ value, onChange, onBlur, error }: Props) {
  return (
    <Select
      label="País"
      withAsterisk
      searchable
      // typing a few letters and pressing Enter picks the first match
      selectFirstOptionOnChange
      placeholder="Elige tu país"
      nothingFoundMessage="Sin resultados"
      data={data}
      value={value || null}
      onChange={(next) => onChange(next ?? '')}
      onBlur={onBlur}
      error={error}
      autoComplete="off"
      comboboxProps={{ withinPortal: true }}
    />
  );
}

import { Autocomplete } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useUniversitySuggestions } from '#web/features/accounts/accounts.api.ts';

type Props = {
  value: string;
  onChange: (name: string, organizationId: string | null) => void;
  error?: string;
};

/** Home university: suggestions from the catalogue and public universities; a new name may be typed. */
export function UniversityField({ value, onChange, error }: Props) {
  const [query] = useDebouncedValue(value.trim(), 250);
  const suggestions = useUniversitySuggestions(query);
  const options = suggestions.data ?? [];
  const organizationFor = (name: string) => options.find((option) => option.name === name)?.organizationId ?? null;
  return (
    <Autocomplete
      label="Universidad de origen (opcional)"
      placeholder="Escribe o elige tu universidad"
      data={[...new Set(options.map((option) => option.name))]}
      value={value}
      onChange={(name) => onChange(name, organizationFor(name))}
      error={error}
      limit={15}
    />
  );
}

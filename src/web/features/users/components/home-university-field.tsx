import { Autocomplete } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useUniversitySuggestions } from '#web/features/accounts/accounts.api.ts';

type Props = { value: string; onChange: (name: string) => void; onBlur?: () => void; error?: string };

/** Home university with suggestions from the public universities catalogue; any name may be typed. */
export function HomeUniversityField({ value, onChange, onBlur, error }: Props) {
  const [query] = useDebouncedValue(value.trim(), 250);
  const suggestions = useUniversitySuggestions(query);
  const names = [...new Set((suggestions.data ?? []).map((option) => option.name))];
  return (
    <Autocomplete
      label="Universidad de origen"
      placeholder="Escribe o elige una universidad"
      data={names}
      value={value}
      onChange={onChange}
      onBlur={onBlur}
      error={error}
      limit={15}
    />
  );
}

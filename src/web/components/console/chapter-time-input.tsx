import { TextInput, type TextInputProps } from '@mantine/core';

/** Spec 2 §9: the marker time mask h:mm:ss, filled as digits are typed. */
function maskChapterTime(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 5);
  if (digits.length <= 1) return digits;
  if (digits.length <= 3) return `${digits[0]}:${digits.slice(1)}`;
  return `${digits[0]}:${digits.slice(1, 3)}:${digits.slice(3)}`;
}

export function ChapterTimeInput(
  props: Omit<TextInputProps, 'onChange' | 'value'> & { value: string; onChange: (value: string) => void },
) {
  const { value, onChange, ...rest } = props;
  return (
    <TextInput
      {...rest}
      value={value}
      inputMode="numeric"
      placeholder="0:00:00"
      onChange={(event) => onChange(maskChapterTime(event.currentTarget.value))}
    />
  );
}

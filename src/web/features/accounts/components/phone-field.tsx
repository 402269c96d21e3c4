import { Input } from '@mantine/core';
import { useId } from 'react';
import PhoneInput from 'react-phone-number-input';
import flags from 'react-phone-number-input/flags';
import es from 'react-phone-number-input/locale/es.json';
import 'react-phone-number-input/style.css';
import classes from './phone-field.module.css';

type Props = {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string;
  required?: boolean;
};

/** An international phone number with a country selector; flags come from the package, never a CDN. */
export function PhoneField({ label, value, onChange, onBlur, error, required }: Props) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <Input.Wrapper
      label={label}
      withAsterisk={required}
      error={error}
      id={id}
      errorProps={{ id: errorId }}
      labelProps={{ htmlFor: id }}
    >
      <PhoneInput
        id={id}
        className={error ? `${classes.root} ${classes.invalid}` : classes.root}
        international
        defaultCountry="MX"
        flags={flags}
        labels={es}
        value={value || undefined}
        onChange={(next) => onChange(next ?? '')}
        onBlur={onBlur}
        autoComplete="tel"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        countrySelectProps={{ 'aria-label': `${label}: país` }}
      />
    </Input.Wrapper>
  );
}

import { Checkbox, SimpleGrid, TextInput } from '@mantine/core';
import {
  Controller,
  type Control,
  type FieldErrors,
  type FieldValues,
  type Path,
  type UseFormRegister,
  type UseFormSetValue,
} from 'react-hook-form';
import { CountrySelect } from './country-select.tsx';
import { UniversityField } from './university-field.tsx';

/** The profile fields sign-up and 'Mi cuenta' share. */
type ProfileFieldValues = {
  country?: string;
  city?: string;
  homeUniversity?: string | null;
  organizationId?: string | null;
  promoMail?: boolean;
  newsMail?: boolean;
};

type Props<T extends FieldValues & ProfileFieldValues> = {
  control: Control<T>;
  register: UseFormRegister<T>;
  setValue: UseFormSetValue<T>;
  errors: FieldErrors<T>;
};

/** Country, city, university (a suggestion also sets the organization) and the two mail consents. */
export function ProfileFields<T extends FieldValues & ProfileFieldValues>({
  control,
  register,
  setValue,
  errors,
}: Props<T>) {
  // T has these fields; TypeScript cannot see it through the generic
  const name = (field: keyof ProfileFieldValues) => field as Path<T>;
  const fieldErrors = errors as FieldErrors<ProfileFieldValues>;
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Controller
          control={control}
          name={name('country')}
          render={({ field, fieldState }) => (
            <CountrySelect
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={fieldState.error?.message}
            />
          )}
        />
        <TextInput
          label="Ciudad"
          withAsterisk
          autoComplete="address-level2"
          error={fieldErrors.city?.message}
          {...register(name('city'))}
        />
      </SimpleGrid>
      <Controller
        control={control}
        name={name('homeUniversity')}
        render={({ field, fieldState }) => (
          <UniversityField
            value={field.value ?? ''}
            onChange={(university, organizationId) => {
              field.onChange(university);
              setValue(name('organizationId'), organizationId as T[Path<T>]);
            }}
            error={fieldState.error?.message}
          />
        )}
      />
      <Checkbox label="Quiero recibir promociones de CxVet" {...register(name('promoMail'))} />
      <Checkbox label="Quiero recibir noticias de CxVet" {...register(name('newsMail'))} />
    </>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Autocomplete,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { creditOfferInputSchema, type CreditOfferInput } from '#shared/credits/credits.schemas.ts';
import {
  creditCategories,
  creditCategoryText,
  deliveryMethods,
  deliveryMethodText,
  knownBodies,
} from '#shared/credits/credits.rules.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { applyServerFieldErrors } from '#web/components/console/form-errors.ts';
import {
  useCreditOffer,
  useRemoveCreditOffer,
  useSaveCreditOffer,
  type CreditTarget,
} from '#web/features/credits/credits.api.ts';

const emptyOffer: CreditOfferInput = {
  hours: '',
  category: 'surgical',
  deliveryMethod: 'selfPacedOnline',
  bodies: [{ name: '', approvalNumber: '' }],
  validFrom: '',
  validUntil: '',
};

/**
 * A diploma's or procedure's continuing-education data: hours, category, delivery method, bodies with approval
 * numbers, validity.
 */
export function CreditOfferForm({ target }: { target: CreditTarget }) {
  const offer = useCreditOffer(target);
  const save = useSaveCreditOffer(target);
  const remove = useRemoveCreditOffer(target);
  const { showAppError } = useErrorModal();
  const form = useForm<CreditOfferInput>({ resolver: zodResolver(creditOfferInputSchema), defaultValues: emptyOffer });
  const bodies = useFieldArray({ control: form.control, name: 'bodies' });
  const { errors } = form.formState;

  useEffect(() => {
    if (offer.data) form.reset(offer.data);
  }, [offer.data, form]);

  const submit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      notifications.show({ color: 'green', message: 'Datos de educación continua guardados.' });
    } catch (error) {
      if (!applyServerFieldErrors(error, form.setError)) showAppError(error);
    }
  });

  if (offer.isPending) return <Text c="dimmed">Cargando…</Text>;

  return (
    <Paper withBorder p="md" component="form" onSubmit={(event) => void submit(event)} noValidate>
      <Stack>
        <Title order={2} fz="lg">
          Educación continua
        </Title>
        <Text size="sm" c="dimmed">
          {target.kind === 'diploma'
            ? 'El crédito se otorga al miembro que ve al menos el 90 % de cada video, aprueba los exámenes y responde la evaluación del curso dentro de la vigencia.'
            : 'El crédito se otorga al miembro Premium que ve al menos el 90 % del video completo y responde la evaluación del curso dentro de la vigencia.'}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            label="Horas"
            required
            inputMode="decimal"
            {...form.register('hours')}
            error={errors.hours?.message}
          />
          <Controller
            control={form.control}
            name="category"
            render={({ field }) => (
              <Select
                label="Categoría"
                required
                allowDeselect={false}
                data={creditCategories.map((value) => ({ value, label: creditCategoryText[value] }))}
                value={field.value}
                onChange={(value) => field.onChange(value)}
                error={errors.category?.message}
              />
            )}
          />
          <Controller
            control={form.control}
            name="deliveryMethod"
            render={({ field }) => (
              <Select
                label="Modalidad"
                required
                allowDeselect={false}
                data={deliveryMethods.map((value) => ({ value, label: deliveryMethodText[value] }))}
                value={field.value}
                onChange={(value) => field.onChange(value)}
                error={errors.deliveryMethod?.message}
              />
            )}
          />
        </SimpleGrid>
        <Stack gap="xs">
          <Text fw={600} size="sm">
            Organismos acreditadores
          </Text>
          {bodies.fields.map((body, index) => (
            <Group key={body.id} align="flex-start" wrap="wrap">
              <Controller
                control={form.control}
                name={`bodies.${index}.name`}
                render={({ field }) => (
                  <Autocomplete
                    label={`Organismo ${index + 1}`}
                    required
                    data={[...knownBodies]}
                    value={field.value}
                    onChange={field.onChange}
                    error={errors.bodies?.[index]?.name?.message}
                    style={{ flex: '1 1 14rem' }}
                  />
                )}
              />
              <TextInput
                label="Número de aprobación"
                required
                {...form.register(`bodies.${index}.approvalNumber`)}
                error={errors.bodies?.[index]?.approvalNumber?.message}
                style={{ flex: '1 1 10rem' }}
              />
              {bodies.fields.length > 1 && (
                <ActionIcon
                  variant="subtle"
                  color="red.9"
                  mt={28}
                  onClick={() => bodies.remove(index)}
                  aria-label={`Quitar organismo ${index + 1}`}
                >
                  ×
                </ActionIcon>
              )}
            </Group>
          ))}
          {errors.bodies?.message && (
            <Text size="xs" c="red.8">
              {errors.bodies.message}
            </Text>
          )}
          <Group>
            <Button variant="light" size="xs" onClick={() => bodies.append({ name: '', approvalNumber: '' })}>
              Agregar organismo
            </Button>
          </Group>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            type="date"
            label="Vigente desde"
            required
            {...form.register('validFrom')}
            error={errors.validFrom?.message}
          />
          <TextInput
            type="date"
            label="Vigente hasta"
            required
            {...form.register('validUntil')}
            error={errors.validUntil?.message}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          {offer.data && (
            <Button
              variant="default"
              loading={remove.isPending}
              onClick={() => void remove.mutateAsync().then(() => form.reset(emptyOffer), showAppError)}
            >
              Quitar créditos
            </Button>
          )}
          <Button type="submit" loading={save.isPending}>
            Guardar
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

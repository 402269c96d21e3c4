import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Group, Loader, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { mxnPlanPricesSchema, type MxnPlanPrices } from '#shared/payments/prices.schemas.ts';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { applyServerFieldErrors } from '#web/components/console/form-errors.ts';
import { notify } from '#web/components/console/notify.ts';
import { useMxnPlanPrices, useSaveMxnPlanPrices } from '#web/features/payments/prices.admin.api.ts';

/** The console's prices in pesos of the monthly and annual plans (Mercado Pago); USD stays as the specs say. */
export function AdminPricesPage() {
  const prices = useMxnPlanPrices();
  const save = useSaveMxnPlanPrices();
  const form = useForm<MxnPlanPrices>({
    resolver: zodResolver(mxnPlanPricesSchema),
    defaultValues: { monthly: '', annual: '' },
  });
  const { errors } = form.formState;

  useEffect(() => {
    if (prices.data) form.reset(prices.data);
  }, [prices.data, form]);

  const onSubmit = form.handleSubmit(
    async (values) => {
      try {
        await save.mutateAsync(values);
        notify.saved('Se guardaron los precios en pesos. Las suscripciones vigentes conservan su precio.');
      } catch (error) {
        if (!applyServerFieldErrors(error, form.setError)) notify.failed(error);
      }
    },
    () => notify.invalid(),
  );

  return (
    <AdminPage title="Precios en pesos">
      {prices.isPending ? (
        <Loader aria-label="Cargando" />
      ) : (
        <Card withBorder maw={640}>
          <form onSubmit={onSubmit} noValidate>
            <Stack gap="md">
              <Text size="sm">
                Precios de los planes al pagar en pesos con Mercado Pago. Un precio nuevo vale para las suscripciones
                nuevas; las vigentes conservan el suyo. Vacío: el plan no se vende en pesos. Los precios en dólares
                (PayPal) no cambian aquí.
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label="Plan mensual (MXN)"
                  description="Número con 2 decimales, por ejemplo 199.00"
                  inputMode="decimal"
                  {...form.register('monthly')}
                  error={errors.monthly?.message}
                />
                <TextInput
                  label="Plan anual (MXN)"
                  description="Número con 2 decimales, por ejemplo 1999.00"
                  inputMode="decimal"
                  {...form.register('annual')}
                  error={errors.annual?.message}
                />
              </SimpleGrid>
              <Group justify="flex-end">
                <Button type="submit" loading={save.isPending}>
                  Guardar
                </Button>
              </Group>
            </Stack>
          </form>
        </Card>
      )}
    </AdminPage>
  );
}

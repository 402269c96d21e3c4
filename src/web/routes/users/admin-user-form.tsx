import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Fieldset, Group, Paper, PasswordInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { adminCreatedUserDefaults, adminUserInputSchema } from '#shared/accounts/users.admin.schemas.ts';
import { messages } from '#shared/messages.ts';
import { notify } from '#web/components/console/notify.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { PageLoader } from '#web/components/page-loader.tsx';
import { PhoneField } from '#web/features/accounts/components/phone-field.tsx';
import { useAdminUser, useDeleteAdminUser, useSaveAdminUser } from '#web/features/users/users.api.ts';
import { HomeUniversityField } from '#web/features/users/components/home-university-field.tsx';
import { membershipLabel, spanishDate } from '#web/features/users/format.ts';
import { useAdminOrganizations } from '#web/features/organizations/organizations.api.ts';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { ConfirmDeleteModal } from '#web/components/console/confirm-delete-modal.tsx';
import { applyServerFieldErrors, useGoBack } from '#web/components/console/form-errors.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { paths } from '#web/paths.ts';
import { AdminDeleteDataModal } from '#web/features/privacy/components/admin-delete-data-modal.tsx';

type FormValues = z.input<typeof adminUserInputSchema>;
type SubmitValues = z.output<typeof adminUserInputSchema>;

const noOrganization = 'ninguna';
const sectionLegend = { legend: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)', marginBottom: 4 } };
const emptyUser = {
  name: '',
  email: '',
  password: '',
  phoneNumber: '',
  homeUniversity: '',
  organizationId: null,
} satisfies FormValues;

export function AdminUserFormPage() {
  const { id } = useParams();
  const isEdit = Boolean(id);
  const navigate = useNavigate();
  const goBack = useGoBack(paths.adminUsers);
  const { showAppError, showError } = useErrorModal();
  const user = useAdminUser(id);
  const organizations = useAdminOrganizations();
  const save = useSaveAdminUser(id);
  const remove = useDeleteAdminUser(id);
  const [confirming, setConfirming] = useState(false);
  const [erasing, setErasing] = useState(false);
  const form = useForm<FormValues, unknown, SubmitValues>({
    resolver: zodResolver(adminUserInputSchema),
    defaultValues: emptyUser,
  });
  const { errors } = form.formState;

  // fill the form once: a background refetch must not overwrite what the admin is typing
  const filledFor = useRef<string | null>(null);
  useEffect(() => {
    if (!user.data || filledFor.current === user.data.id) return;
    filledFor.current = user.data.id;
    form.reset({
      name: user.data.name,
      email: user.data.email,
      password: '',
      phoneNumber: user.data.phoneNumber,
      homeUniversity: user.data.homeUniversity ?? '',
      organizationId: user.data.organizationId,
    });
  }, [user.data, form]);

  if (isEdit && user.isPending) return <PageLoader />;
  if (isEdit && user.isError) throw user.error;

  const universities = (organizations.data ?? []).filter((organization) => organization.type === 'Universidad');
  const organizationOptions = [
    { value: noOrganization, label: 'Ninguna' },
    ...universities.map((organization) => ({ value: organization.id, label: organization.title })),
  ];

  const onSubmit = form.handleSubmit(async (values) => {
    if (!isEdit && !values.password) {
      form.setError('password', { type: 'required', message: messages.requiredDot });
      return;
    }
    try {
      await save.mutateAsync({
        name: values.name,
        email: values.email,
        password: values.password || undefined,
        phoneNumber: values.phoneNumber,
        homeUniversity: values.homeUniversity ?? undefined,
        organizationId: values.organizationId,
      });
      notify.saved(isEdit ? 'El usuario se guardó correctamente.' : 'El usuario se creó correctamente.');
      await navigate(paths.adminUsers);
    } catch (error) {
      // creating answers a taken e-mail without `fields`: it still belongs on the e-mail field
      if (error instanceof ApiError && error.code === 'EMAIL_TAKEN' && !error.fields)
        form.setError('email', { type: 'server', message: error.message });
      else if (!applyServerFieldErrors(error, form.setError)) showAppError(error);
    }
  });

  async function onDelete() {
    try {
      await remove.mutateAsync();
      setConfirming(false);
      notify.deleted('El usuario se eliminó.');
      await navigate(paths.adminUsers);
    } catch {
      setConfirming(false);
      showError({ title: 'ERROR ADMIN USUARIO', message: 'No se pudo eliminar usuario' });
    }
  }

  const account = user.data;
  return (
    <AdminPage title={isEdit ? 'Editar usuario' : 'Crear nuevo usuario'}>
      <Paper withBorder p="md" maw={900}>
        <form onSubmit={onSubmit} noValidate aria-label={isEdit ? 'Editar usuario' : 'Crear nuevo usuario'}>
          <Stack>
            <Fieldset legend="Cuenta" variant="unstyled" styles={sectionLegend}>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label="Nombre"
                  required
                  autoComplete="off"
                  {...form.register('name')}
                  error={errors.name?.message}
                />
                <TextInput
                  label="Correo"
                  type="email"
                  required
                  autoComplete="off"
                  {...form.register('email')}
                  error={errors.email?.message}
                />
                <PasswordInput
                  label="Contraseña"
                  required={!isEdit}
                  description={isEdit ? 'Déjala vacía para conservar la actual.' : undefined}
                  autoComplete="new-password"
                  {...form.register('password')}
                  error={errors.password?.message}
                />
                <Controller
                  control={form.control}
                  name="phoneNumber"
                  render={({ field }) => (
                    <PhoneField
                      label="Teléfono"
                      value={field.value ?? ''}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      error={errors.phoneNumber?.message}
                    />
                  )}
                />
                <Controller
                  control={form.control}
                  name="homeUniversity"
                  render={({ field }) => (
                    <HomeUniversityField
                      value={field.value ?? ''}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      error={errors.homeUniversity?.message}
                    />
                  )}
                />
              </SimpleGrid>
            </Fieldset>

            <Fieldset legend="Organización" variant="unstyled" styles={sectionLegend}>
              <Controller
                control={form.control}
                name="organizationId"
                render={({ field }) => (
                  <Select
                    label="Universidad"
                    data={organizationOptions}
                    value={field.value ?? noOrganization}
                    onChange={(value) => field.onChange(!value || value === noOrganization ? null : value)}
                    allowDeselect={false}
                    error={errors.organizationId?.message}
                    maw={430}
                  />
                )}
              />
            </Fieldset>

            <Fieldset legend="Membresía" variant="unstyled" styles={sectionLegend}>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label="Tipo de membresía"
                  readOnly
                  variant="filled"
                  value={account ? membershipLabel(account) : adminCreatedUserDefaults.type}
                />
                <TextInput
                  label="Registrado desde"
                  readOnly
                  variant="filled"
                  value={account ? spanishDate(account.createdAt) : ''}
                  placeholder="03/06/2019"
                />
              </SimpleGrid>
            </Fieldset>

            <Fieldset legend="Ubicación" variant="unstyled" styles={sectionLegend}>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label="País"
                  readOnly
                  variant="filled"
                  value={account ? account.country || '-' : adminCreatedUserDefaults.country}
                />
                <TextInput
                  label="Ciudad"
                  readOnly
                  variant="filled"
                  value={account ? account.city || '-' : adminCreatedUserDefaults.city}
                />
              </SimpleGrid>
            </Fieldset>

            <Group justify="flex-end" gap="sm">
              {isEdit ? (
                <Group gap="sm" mr="auto">
                  <Button color="red" variant="outline" onClick={() => setConfirming(true)}>
                    Eliminar
                  </Button>
                  <Button color="red" variant="subtle" onClick={() => setErasing(true)}>
                    Borrar datos a solicitud
                  </Button>
                </Group>
              ) : null}
              <Button variant="default" onClick={goBack}>
                Cancelar
              </Button>
              <Button type="submit" loading={save.isPending}>
                Guardar
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <AdminDeleteDataModal
        userId={id}
        opened={erasing}
        onClose={() => setErasing(false)}
        onDone={async () => {
          setErasing(false);
          notify.deleted('Se eliminaron los datos del usuario.');
          await navigate(paths.adminUsers);
        }}
      />
      <ConfirmDeleteModal
        opened={confirming}
        onCancel={() => setConfirming(false)}
        onConfirm={onDelete}
        loading={remove.isPending}
      />
    </AdminPage>
  );
}

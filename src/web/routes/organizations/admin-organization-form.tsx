import { zodResolver } from '@hookform/resolvers/zod';
import { Paper, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useParams } from 'react-router';
import { organizationInputSchema, type OrganizationInput } from '#shared/organizations/organizations.admin.schemas.ts';
import { organizationTypes } from '#shared/organizations/organizations.rules.ts';
import { PageLoader } from '#web/components/page-loader.tsx';
import { useAdminOrganization, useSaveOrganization } from '#web/features/organizations/organizations.api.ts';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { FormUploadField } from '#web/components/console/upload-field.tsx';
import { newRecordId } from '#web/components/console/form-errors.ts';
import { usePendingUploads } from '#web/components/console/pending-uploads.ts';
import { RecordFormButtons, useRecordForm } from '#web/components/console/record-form.tsx';
import { paths } from '#web/paths.ts';

const emptyOrganization: OrganizationInput = {
  title: '',
  type: '' as OrganizationInput['type'],
  logoImage: '',
  promoImage: null,
  promoLink: '',
};

export function AdminOrganizationFormPage() {
  const params = useParams();
  // a new form for every record, so a new record never keeps the previous one's id
  return <AdminOrganizationForm key={params.id ?? 'new'} recordId={params.id} />;
}

function AdminOrganizationForm({ recordId }: { recordId?: string }) {
  const isEdit = Boolean(recordId);
  const [id] = useState(() => recordId ?? newRecordId());
  const pending = usePendingUploads();
  const organization = useAdminOrganization(id, isEdit);
  const save = useSaveOrganization(id);
  const form = useForm<OrganizationInput>({
    resolver: zodResolver(organizationInputSchema),
    defaultValues: emptyOrganization,
  });
  const actions = useRecordForm({ form, save, listPath: paths.adminOrganizations, pending });
  const { errors } = form.formState;
  const type = useWatch({ control: form.control, name: 'type' });

  useEffect(() => {
    if (organization.data) {
      const { id: _id, ...values } = organization.data;
      form.reset({ ...values, logoImage: values.logoImage ?? '', promoLink: values.promoLink ?? '' });
    }
  }, [organization.data, form]);

  if (isEdit && organization.isPending) return <PageLoader />;
  if (isEdit && organization.isError) throw organization.error;

  return (
    <AdminPage title={isEdit ? 'Editar organización' : 'Crear organización'}>
      <Paper withBorder p="md" maw={900}>
        <form onSubmit={actions.onSubmit} noValidate>
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Título" required {...form.register('title')} error={errors.title?.message} />
              <Controller
                control={form.control}
                name="type"
                render={({ field }) => (
                  <Select
                    label="Tipo de organización"
                    required
                    placeholder="Selecciona un tipo"
                    data={[...organizationTypes]}
                    value={field.value || null}
                    onChange={(value) => {
                      field.onChange(value ?? '');
                      form.clearErrors('type');
                      // spec 2 §4: a Universidad has no promo image or link
                      if (value === 'Universidad') {
                        pending.release(form.getValues('promoImage'));
                        form.setValue('promoImage', null);
                        form.setValue('promoLink', '');
                        form.clearErrors(['promoImage', 'promoLink']);
                      }
                    }}
                    error={errors.type?.message}
                  />
                )}
              />
            </SimpleGrid>
            <FormUploadField
              form={form}
              name="logoImage"
              label="Logo"
              hint="Tamaño mínimo recomendado: 1090x720 px. Formatos: jpeg, jpg, png."
              target="organization-logo"
              recordId={id}
              required
              preview
              pending={pending}
            />
            {type === 'Empresa' ? (
              <>
                <FormUploadField
                  form={form}
                  name="promoImage"
                  empty={null}
                  label="Imagen promocional"
                  hint="Tamaño mínimo recomendado: 1024x210 px. Formatos: jpeg, jpg, png."
                  target="organization-promo"
                  recordId={id}
                  required
                  preview
                  pending={pending}
                />
                <TextInput
                  label="Enlace promocional"
                  required
                  placeholder="https://"
                  {...form.register('promoLink')}
                  error={errors.promoLink?.message}
                />
              </>
            ) : null}
            <RecordFormButtons actions={actions} canDelete={false} />
          </Stack>
        </form>
      </Paper>
    </AdminPage>
  );
}

import type { z } from 'zod';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Button,
  Checkbox,
  Group,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { diplomaInputSchema, type AdminDiploma, type DiplomaInput } from '#shared/diplomas/diplomas.admin.schemas.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { ServerSearchSelect } from '#web/components/console/server-search-select.tsx';
import { RichTextField } from '#web/components/console/rich-text-field.tsx';
import { FormUploadField } from '#web/components/console/upload-field.tsx';
import { applyServerFieldErrors, useGoBack } from '#web/components/console/form-errors.ts';
import { usePendingUploads } from '#web/components/console/pending-uploads.ts';
import { href, paths } from '#web/paths.ts';
import {
  diplomaAdminCandidatesQuery,
  useDiplomaOptions,
  useSaveDiploma,
} from '#web/features/diplomas/admin/diplomas.admin.api.ts';

const emptyDiploma: DiplomaInput = {
  title: '',
  descriptionHtml: '',
  previewImage: '',
  previewPdf: '',
  certificateImage: null,
  cost: '',
  costMxn: '',
  kind: 'CxVet',
  organizationId: null,
  adminEmail: '',
  isTest: false,
};

const fileFields = [
  {
    name: 'previewImage',
    label: 'Imagen de vista previa',
    target: 'diploma-preview-image',
    hint: 'Tamaño mínimo recomendado: 1090x720 px. Formatos: jpeg, jpg, png.',
    required: true,
  },
  {
    name: 'previewPdf',
    label: 'PDF de información previa',
    target: 'diploma-preview-pdf',
    hint: 'Formato: pdf.',
    required: true,
  },
  {
    name: 'certificateImage',
    label: 'Imagen del certificado',
    target: 'diploma-certificate',
    hint: 'Fondo de la constancia (16x12 in, horizontal). Formatos: jpeg, jpg, png.',
    required: false,
  },
] as const;

/** The diploma's administrator by e-mail: the server searches the users as the Admin types (50 at most). */
function AdminEmailField(props: { value: string; onChange: (value: string) => void; error?: string }) {
  return (
    <ServerSearchSelect
      label="Administrador del diplomado (correo)"
      placeholder="Sin administrador"
      query={diplomaAdminCandidatesQuery}
      toOptions={(people) => people.map((person) => ({ value: person.email, label: person.email }))}
      value={props.value ? { value: props.value, label: props.value } : null}
      onChange={(option) => props.onChange(option?.value ?? '')}
      error={props.error}
    />
  );
}

/** Tab 1, 'Información general': creating one leads to its other tabs; saving an existing one returns to the list. */
export function DiplomaGeneralForm({ id, diploma }: { id: string; diploma?: AdminDiploma }) {
  const isEdit = Boolean(diploma);
  const navigate = useNavigate();
  const goBack = useGoBack(paths.adminDiplomas);
  const { showAppError } = useErrorModal();
  const pending = usePendingUploads();
  const options = useDiplomaOptions();
  const save = useSaveDiploma(id);
  const form = useForm<z.input<typeof diplomaInputSchema>, unknown, DiplomaInput>({
    resolver: zodResolver(diplomaInputSchema),
    defaultValues: emptyDiploma,
  });
  const { errors } = form.formState;
  const kind = useWatch({ control: form.control, name: 'kind' });

  useEffect(() => {
    if (diploma) {
      const { id: _id, isActive: _active, createdAt: _created, ...values } = diploma;
      form.reset(values);
    }
  }, [diploma, form]);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      pending.commit();
      if (isEdit) {
        notifications.show({ color: 'green', message: 'Se guardó la información del diplomado.' });
        await navigate(paths.adminDiplomas);
      } else {
        notifications.show({ color: 'green', message: 'Diplomado creado. Agrega sus videos para poder activarlo.' });
        await navigate(`${href.adminDiploma(id)}?tab=videos`, { replace: true });
      }
    } catch (error) {
      if (!applyServerFieldErrors(error, form.setError)) showAppError(error);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="lg">
        <Paper withBorder p="md">
          <Stack>
            <Title order={2} fz="lg">
              Información general
            </Title>
            <TextInput label="Título" required {...form.register('title')} error={errors.title?.message} />
            <Controller
              control={form.control}
              name="descriptionHtml"
              render={({ field }) => (
                <RichTextField
                  label="Descripción"
                  required
                  value={field.value}
                  onChange={field.onChange}
                  error={errors.descriptionHtml?.message}
                />
              )}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="Costo (USD)"
                description="Número con 2 decimales, por ejemplo 149.90"
                required
                inputMode="decimal"
                {...form.register('cost')}
                error={errors.cost?.message}
              />
              <TextInput
                label="Costo (MXN)"
                description="Para pagar en pesos con Mercado Pago; vacío: no se vende en pesos"
                inputMode="decimal"
                {...form.register('costMxn')}
                error={errors.costMxn?.message}
              />
              <Controller
                control={form.control}
                name="kind"
                render={({ field }) => (
                  <Stack gap={4}>
                    <Text size="sm" fw={500} id="diploma-kind-label">
                      Tipo de diplomado
                    </Text>
                    <SegmentedControl
                      aria-labelledby="diploma-kind-label"
                      data={[
                        { value: 'CxVet', label: 'CxVet' },
                        { value: 'External', label: 'Externo' },
                      ]}
                      value={field.value}
                      onChange={(value) => {
                        field.onChange(value);
                        if (value === 'CxVet') form.setValue('organizationId', null);
                        form.clearErrors('organizationId');
                      }}
                    />
                  </Stack>
                )}
              />
              <Controller
                control={form.control}
                name="organizationId"
                render={({ field }) => (
                  <Select
                    label="Organización"
                    placeholder={kind === 'External' ? 'Selecciona una organización' : 'Solo para diplomados externos'}
                    required={kind === 'External'}
                    disabled={kind !== 'External'}
                    searchable
                    data={(options.data?.organizations ?? []).map((organization) => ({
                      value: organization.id,
                      label: organization.title,
                    }))}
                    value={field.value}
                    onChange={(value) => field.onChange(value)}
                    error={errors.organizationId?.message}
                    nothingFoundMessage="Sin resultados"
                  />
                )}
              />
              <Controller
                control={form.control}
                name="adminEmail"
                render={({ field }) => (
                  <AdminEmailField
                    value={field.value ?? ''}
                    onChange={field.onChange}
                    error={errors.adminEmail?.message}
                  />
                )}
              />
            </SimpleGrid>
            <Checkbox label="Diplomado de prueba (no se muestra a los miembros)" {...form.register('isTest')} />
          </Stack>
        </Paper>

        <Paper withBorder p="md">
          <Stack>
            <Title order={2} fz="lg">
              Archivos
            </Title>
            <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
              {fileFields.map((file) => (
                <FormUploadField
                  key={file.name}
                  form={form}
                  name={file.name}
                  empty={file.required ? '' : null}
                  label={file.label}
                  hint={file.hint}
                  target={file.target}
                  recordId={id}
                  required={file.required}
                  preview={file.name === 'previewImage'}
                  pending={pending}
                />
              ))}
            </SimpleGrid>
          </Stack>
        </Paper>

        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={goBack}>
            Cancelar
          </Button>
          <Button type="submit" loading={save.isPending}>
            Guardar
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

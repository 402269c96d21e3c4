import '@mantine/dates/styles.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Group, Input, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { DatePickerInput, DatesProvider, DateTimePicker } from '@mantine/dates';
import dayjs from 'dayjs';
import { useEffect, useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useParams } from 'react-router';
import { eventInputSchema, type EventInput } from '#shared/events/events.admin.schemas.ts';
import { eventStatuses } from '#shared/events/events.rules.ts';
import { promoVideoWatchPrefix } from '#shared/events/events.schemas.ts';
import { PageLoader } from '#web/components/page-loader.tsx';
import { useAdminEvent, useDeleteEvent, useSaveEvent } from '#web/features/events/events.api.ts';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { RichTextField } from '#web/components/console/rich-text-field.tsx';
import { FormUploadField } from '#web/components/console/upload-field.tsx';
import { newRecordId } from '#web/components/console/form-errors.ts';
import { usePendingUploads } from '#web/components/console/pending-uploads.ts';
import { RecordFormButtons, useRecordForm } from '#web/components/console/record-form.tsx';
import { paths } from '#web/paths.ts';

const emptyEvent: EventInput = {
  name: '',
  displayDate: '',
  sortDate: '',
  type: '',
  status: 'Activo',
  detailHtml: '',
  image: '',
  pdf: null,
  programPdf: null,
  promoVideoId: '',
  startsAt: '',
  endsAt: '',
  place: '',
};

/** The form keeps 'YYYY-MM-DDTHH:mm' on the site's clock; the picker works with 'YYYY-MM-DD HH:mm:ss'. */
const toPicker = (wallTime: string) => (wallTime ? `${wallTime.replace('T', ' ')}:00` : null);
const fromPicker = (value: string | null) => (value ? value.slice(0, 16).replace(' ', 'T') : '');

export function AdminEventFormPage() {
  const params = useParams();
  // a new form for every record, so a new record never keeps the previous one's id
  return <AdminEventForm key={params.id ?? 'new'} recordId={params.id} />;
}

function AdminEventForm({ recordId }: { recordId?: string }) {
  const isEdit = Boolean(recordId);
  const [id] = useState(() => recordId ?? newRecordId());
  const pending = usePendingUploads();
  const promoId = useId();
  const event = useAdminEvent(id, isEdit);
  const save = useSaveEvent(id);
  const remove = useDeleteEvent(id);
  const form = useForm<EventInput>({ resolver: zodResolver(eventInputSchema), defaultValues: emptyEvent });
  const actions = useRecordForm({ form, save, remove, listPath: paths.adminEvents, pending });
  const { errors } = form.formState;

  useEffect(() => {
    if (event.data) {
      const { id: _id, ...values } = event.data;
      form.reset(values);
    }
  }, [event.data, form]);

  if (isEdit && event.isPending) return <PageLoader />;
  if (isEdit && event.isError) throw event.error;

  const fileField = (
    name: 'image' | 'pdf' | 'programPdf',
    label: string,
    target: 'event-image' | 'event-pdf' | 'event-program',
    hint: string,
  ) => (
    <FormUploadField
      form={form}
      name={name}
      empty={name === 'image' ? '' : null}
      label={label}
      hint={hint}
      target={target}
      required={name === 'image'}
      preview={name === 'image'}
      pending={pending}
    />
  );

  return (
    <AdminPage title={isEdit ? 'Editar evento' : 'Nuevo evento'}>
      <form onSubmit={actions.onSubmit} noValidate>
        <Stack gap="lg">
          <Paper withBorder p="md">
            <Stack>
              <TextInput label="Nombre" required {...form.register('name')} error={errors.name?.message} />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label="Fecha a mostrar"
                  description="Ej. 12 y 13 de marzo"
                  required
                  {...form.register('displayDate')}
                  error={errors.displayDate?.message}
                />
                <Controller
                  control={form.control}
                  name="sortDate"
                  render={({ field }) => (
                    <DatesProvider settings={{ locale: 'es' }}>
                      <DatePickerInput
                        label="Fecha para ordenar"
                        description="Ordena los eventos en el sitio"
                        required
                        valueFormat="D [de] MMMM [de] YYYY"
                        value={field.value ? dayjs(field.value).format('YYYY-MM-DD') : null}
                        onChange={(value) => {
                          field.onChange(value ? dayjs(value).toISOString() : '');
                          form.clearErrors('sortDate');
                        }}
                        error={errors.sortDate?.message}
                      />
                    </DatesProvider>
                  )}
                />
                {(['startsAt', 'endsAt'] as const).map((name) => (
                  <Controller
                    key={name}
                    control={form.control}
                    name={name}
                    render={({ field }) => (
                      <DatesProvider settings={{ locale: 'es' }}>
                        <DateTimePicker
                          label={name === 'startsAt' ? 'Inicio' : 'Término'}
                          description="Hora del centro de México; para calendarios y buscadores"
                          valueFormat="D [de] MMMM [de] YYYY, HH:mm"
                          clearable
                          value={toPicker(field.value)}
                          onChange={(value) => {
                            field.onChange(fromPicker(value));
                            form.clearErrors(['startsAt', 'endsAt']);
                          }}
                          error={errors[name]?.message}
                        />
                      </DatesProvider>
                    )}
                  />
                ))}
                <TextInput
                  label="Lugar"
                  description="Ej. World Trade Center, Ciudad de México"
                  {...form.register('place')}
                  error={errors.place?.message}
                />
                <TextInput label="Tipo de evento" required {...form.register('type')} error={errors.type?.message} />
                <Controller
                  control={form.control}
                  name="status"
                  render={({ field }) => (
                    <Select
                      label="Estatus"
                      required
                      data={[...eventStatuses]}
                      value={field.value}
                      allowDeselect={false}
                      onChange={(value) => field.onChange(value ?? 'Activo')}
                      error={errors.status?.message}
                    />
                  )}
                />
              </SimpleGrid>
            </Stack>
          </Paper>

          <Paper withBorder p="md">
            <Stack>
              <Title order={2} fz="lg">
                Archivos
              </Title>
              <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
                {fileField('image', 'Imagen principal', 'event-image', 'Formatos: jpeg, jpg, png.')}
                {fileField('pdf', 'PDF del evento', 'event-pdf', 'Formato: pdf.')}
                {fileField('programPdf', 'PDF del programa', 'event-program', 'Formato: pdf.')}
              </SimpleGrid>
              <Input.Wrapper
                label="Video promocional"
                description="Escribe solo el identificador del video"
                error={errors.promoVideoId?.message}
                id={promoId}
              >
                <Group gap={0} wrap="wrap" mt={4}>
                  <Text
                    size="sm"
                    px="xs"
                    py={6}
                    bg="gray.1"
                    style={{
                      border: '1px solid var(--mantine-color-gray-4)',
                      borderRadius: 4,
                      overflowWrap: 'anywhere',
                    }}
                  >
                    {promoVideoWatchPrefix}
                  </Text>
                  <TextInput
                    id={promoId}
                    aria-label="Identificador del video promocional"
                    {...form.register('promoVideoId')}
                    error={Boolean(errors.promoVideoId)}
                    style={{ flex: 1, minWidth: 160 }}
                  />
                </Group>
              </Input.Wrapper>
            </Stack>
          </Paper>

          <Paper withBorder p="md">
            <Controller
              control={form.control}
              name="detailHtml"
              render={({ field }) => (
                <RichTextField
                  label="Detalle"
                  required
                  value={field.value}
                  onChange={(html) => {
                    field.onChange(html);
                    form.clearErrors('detailHtml');
                  }}
                  error={errors.detailHtml?.message}
                />
              )}
            />
          </Paper>

          <RecordFormButtons actions={actions} canDelete={isEdit} />
        </Stack>
      </form>
    </AdminPage>
  );
}

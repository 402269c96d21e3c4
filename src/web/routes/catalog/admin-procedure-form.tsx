import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useParams } from 'react-router';
import { CreditOfferForm } from '#web/features/credits/components/credit-offer-form.tsx';
import { CreditsAdminPanel } from '#web/features/credits/components/credits-admin-panel.tsx';
import {
  emptyProcedureCaptions,
  procedureInputSchema,
  type ProcedureInput,
} from '#shared/catalog/procedures.admin.schemas.ts';
import { captionLabels, captionLanguages, captionVideos } from '#shared/catalog/captions.rules.ts';
import { procedureTypes, species } from '#shared/catalog/catalog.rules.ts';
import { PageLoader } from '#web/components/page-loader.tsx';
import {
  useAdminProcedure,
  useAdminTags,
  useDeleteProcedure,
  useSaveProcedure,
} from '#web/features/catalog/catalog.admin.api.ts';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { ChapterTimeInput } from '#web/components/console/chapter-time-input.tsx';
import { FormUploadField } from '#web/components/console/upload-field.tsx';
import { VideoRenditionStatus } from '#web/components/console/video-rendition-status.tsx';
import { newRecordId } from '#web/components/console/form-errors.ts';
import { usePendingUploads } from '#web/components/console/pending-uploads.ts';
import { RecordFormButtons, useRecordForm } from '#web/components/console/record-form.tsx';
import { paths } from '#web/paths.ts';

const emptyProcedure: ProcedureInput = {
  name: '',
  type: 'Gratis',
  detail: '',
  species: '' as ProcedureInput['species'],
  tagIds: [],
  meta: '',
  previewImage: '',
  demoVideo: '',
  guidePdf: '',
  fullVideo: '',
  chapters: [],
  captions: emptyProcedureCaptions,
};

const captionVideoTitles = { demo: 'Subtítulos del video demo', full: 'Subtítulos del video completo' } as const;
const captionLanguageNames = { es: 'Español', en: 'Inglés', pt: 'Portugués' } as const;

const fileFields = [
  {
    name: 'previewImage',
    label: 'Imagen de vista previa',
    target: 'procedure-preview',
    hint: 'Tamaño mínimo recomendado: 1090x720 px. Formatos: jpeg, jpg, png.',
  },
  { name: 'demoVideo', label: 'Video demo', target: 'procedure-demo', hint: 'Formatos: mp4, webm, ogg.' },
  { name: 'guidePdf', label: 'Guía PDF (fascículo)', target: 'procedure-guide', hint: 'Formato: pdf.' },
  { name: 'fullVideo', label: 'Video completo', target: 'procedure-video', hint: 'Formatos: mp4, webm, ogg.' },
] as const;

export function AdminProcedureFormPage() {
  const params = useParams();
  // a new form for every record, so a new record never keeps the previous one's id
  return <AdminProcedureForm key={params.id ?? 'new'} recordId={params.id} />;
}

function AdminProcedureForm({ recordId }: { recordId?: string }) {
  const isEdit = Boolean(recordId);
  const [id] = useState(() => recordId ?? newRecordId());
  const pending = usePendingUploads();
  const procedure = useAdminProcedure(id, isEdit);
  const tags = useAdminTags();
  const save = useSaveProcedure(id);
  const remove = useDeleteProcedure(id);

  const form = useForm<ProcedureInput>({ resolver: zodResolver(procedureInputSchema), defaultValues: emptyProcedure });
  const actions = useRecordForm({ form, save, remove, listPath: paths.adminProcedures, pending });
  const chapters = useFieldArray({ control: form.control, name: 'chapters' });
  const [demoVideo, fullVideo] = useWatch({ control: form.control, name: ['demoVideo', 'fullVideo'] });
  const videos = { demoVideo, fullVideo };
  const { errors } = form.formState;

  useEffect(() => {
    if (procedure.data) {
      const { id: _id, createdAt: _createdAt, ...values } = procedure.data;
      form.reset({ ...values, captions: values.captions ?? emptyProcedureCaptions });
    }
  }, [procedure.data, form]);

  if (isEdit && procedure.isPending) return <PageLoader />;
  if (isEdit && procedure.isError) throw procedure.error;

  return (
    <AdminPage title={isEdit ? 'Editar procedimiento' : 'Nuevo procedimiento'}>
      <form onSubmit={actions.onSubmit} noValidate>
        <Stack gap="lg">
          <Paper withBorder p="md">
            <Stack>
              <Title order={2} fz="lg">
                Información general
              </Title>
              <TextInput label="Nombre" required {...form.register('name')} error={errors.name?.message} />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Controller
                  control={form.control}
                  name="type"
                  render={({ field }) => (
                    <Select
                      label="Tipo de usuario"
                      data={[...procedureTypes]}
                      value={field.value}
                      onChange={(value) => field.onChange(value ?? 'Gratis')}
                      allowDeselect={false}
                      error={errors.type?.message}
                    />
                  )}
                />
                <Controller
                  control={form.control}
                  name="species"
                  render={({ field }) => (
                    <Select
                      label="Especie"
                      required
                      placeholder="Selecciona una especie"
                      data={[...species]}
                      value={field.value || null}
                      onChange={(value) => field.onChange(value ?? '')}
                      error={errors.species?.message}
                    />
                  )}
                />
              </SimpleGrid>
              <Textarea
                label="Descripción"
                required
                autosize
                minRows={3}
                {...form.register('detail')}
                error={errors.detail?.message}
              />
              <Controller
                control={form.control}
                name="tagIds"
                render={({ field }) => (
                  <Checkbox.Group label="Etiquetas" value={field.value} onChange={field.onChange}>
                    <Group gap="md" mt={6}>
                      {(tags.data ?? []).map((tag) => (
                        <Checkbox key={tag.id} value={tag.id} label={tag.name} />
                      ))}
                    </Group>
                  </Checkbox.Group>
                )}
              />
              <TextInput
                label="Sinónimos (meta)"
                description="Separados por comas"
                {...form.register('meta')}
                error={errors.meta?.message}
              />
            </Stack>
          </Paper>

          <Paper withBorder p="md">
            <Stack>
              <Title order={2} fz="lg">
                Archivos
              </Title>
              <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
                {fileFields.map((file) => (
                  <Stack key={file.name} gap="xs">
                    <FormUploadField
                      form={form}
                      name={file.name}
                      label={file.label}
                      hint={file.hint}
                      target={file.target}
                      recordId={id}
                      required
                      pending={pending}
                    />
                    {(file.name === 'demoVideo' || file.name === 'fullVideo') && videos[file.name] && (
                      <VideoRenditionStatus
                        videoKey={videos[file.name]}
                        saved={videos[file.name] === procedure.data?.[file.name]}
                      />
                    )}
                  </Stack>
                ))}
              </SimpleGrid>
            </Stack>
          </Paper>

          <Paper withBorder p="md">
            <Stack>
              <Title order={2} fz="lg">
                Subtítulos
              </Title>
              <Text size="sm" c="dimmed">
                Archivos WebVTT (.vtt) codificados en UTF-8, de hasta 1 MB. El español va primero; inglés y portugués
                son opcionales.
              </Text>
              <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
                {captionVideos.map((video) => (
                  <Stack key={video} gap="sm">
                    <Title order={3} fz="md">
                      {captionVideoTitles[video]}
                    </Title>
                    {captionLanguages.map((language) => (
                      <FormUploadField
                        key={language}
                        form={form}
                        name={`captions.${video}.${language}`}
                        clears={`captions.${video}`}
                        label={`${captionVideoTitles[video]}: ${captionLanguageNames[language]}`}
                        hint={language === 'es' ? undefined : `En el reproductor: ${captionLabels[language]}`}
                        target="procedure-captions"
                        recordId={id}
                        pending={pending}
                      />
                    ))}
                  </Stack>
                ))}
              </SimpleGrid>
            </Stack>
          </Paper>

          <Paper withBorder p="md">
            <Stack>
              <Group justify="space-between">
                <Title order={2} fz="lg">
                  Marcadores del video
                </Title>
                <Button variant="default" onClick={() => chapters.append({ name: '', time: '' })}>
                  Agregar marcador
                </Button>
              </Group>
              {chapters.fields.length === 0 ? (
                <Text c="dimmed" size="sm">
                  Sin marcadores.
                </Text>
              ) : (
                <Table.ScrollContainer minWidth={320}>
                  <Table>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Nombre</Table.Th>
                        <Table.Th>Tiempo (h:mm:ss)</Table.Th>
                        <Table.Th>
                          <VisuallyHidden>Acciones</VisuallyHidden>
                        </Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {chapters.fields.map((chapter, index) => (
                        <Table.Tr key={chapter.id}>
                          <Table.Td>
                            <TextInput
                              aria-label={`Nombre del marcador ${index + 1}`}
                              {...form.register(`chapters.${index}.name`)}
                              error={errors.chapters?.[index]?.name?.message}
                            />
                          </Table.Td>
                          <Table.Td>
                            <Controller
                              control={form.control}
                              name={`chapters.${index}.time`}
                              render={({ field }) => (
                                <ChapterTimeInput
                                  aria-label={`Tiempo del marcador ${index + 1}`}
                                  value={field.value}
                                  onChange={field.onChange}
                                  onBlur={field.onBlur}
                                  error={errors.chapters?.[index]?.time?.message}
                                  w={120}
                                />
                              )}
                            />
                          </Table.Td>
                          <Table.Td>
                            <ActionIcon
                              variant="subtle"
                              color="red"
                              onClick={() => chapters.remove(index)}
                              aria-label={`Quitar marcador ${index + 1}`}
                            >
                              ✕
                            </ActionIcon>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </Stack>
          </Paper>

          <RecordFormButtons actions={actions} canDelete={isEdit} />
        </Stack>
      </form>
      {/* its own forms: the credit is saved apart from the procedure, once the procedure exists (decision 049) */}
      {isEdit && (
        <Stack gap="lg" mt="lg">
          <CreditOfferForm target={{ kind: 'procedure', id }} />
          <CreditsAdminPanel target={{ kind: 'procedure', id }} />
        </Stack>
      )}
    </AdminPage>
  );
}

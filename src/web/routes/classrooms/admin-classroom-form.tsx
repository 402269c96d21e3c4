import '@mantine/dates/styles.css';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Badge,
  Button,
  Group,
  Input,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { DatePickerInput, DatesProvider } from '@mantine/dates';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useParams } from 'react-router';
import { ClassroomProgress } from '#web/features/classrooms/components/classroom-progress.tsx';
import { classroomAccessTypes } from '#shared/classrooms/classrooms.rules.ts';
import {
  classroomInputSchema,
  type ClassroomInput,
  type ClassroomValues,
  type ClassroomVideoOption,
} from '#shared/classrooms/classrooms.schemas.ts';
import { messages } from '#shared/messages.ts';
import { organizationTypes } from '#shared/organizations/organizations.rules.ts';
import { PageLoader } from '#web/components/page-loader.tsx';
import { useAdminOrganizations } from '#web/features/organizations/organizations.api.ts';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { ServerSearchSelect } from '#web/components/console/server-search-select.tsx';
import { FormUploadField } from '#web/components/console/upload-field.tsx';
import { newRecordId } from '#web/components/console/form-errors.ts';
import { usePendingUploads } from '#web/components/console/pending-uploads.ts';
import { useRecordForm } from '#web/components/console/record-form.tsx';
import {
  adminExportHref,
  useAdminClassroom,
  useAdminImportPreview,
  classroomCandidatesQuery,
  useClassroomVideoOptions,
  useDeleteClassroom,
  useSaveClassroom,
} from '#web/features/classrooms/classrooms.api.ts';
import { ImportMembersModal } from '#web/features/classrooms/components/import-members-modal.tsx';
import { SelectableTable } from '#web/features/classrooms/components/selectable-table.tsx';
import {
  ClassroomMembersTable,
  noEdits,
  withImported,
  type MemberEdits,
} from '#web/features/classrooms/components/members-table.tsx';
import { paths } from '#web/paths.ts';

const emptyClassroom: ClassroomInput = {
  title: '',
  description: '',
  accessType: '' as ClassroomInput['accessType'],
  organizationType: '' as ClassroomInput['organizationType'],
  organizationId: '',
  expiresAt: '',
  previewImage: '',
  previewPdf: '',
  procedureIds: [],
  adminUserId: null,
};

export function AdminClassroomFormPage() {
  const params = useParams();
  return <AdminClassroomForm key={params.id ?? 'new'} recordId={params.id} />;
}

function AdminClassroomForm({ recordId }: { recordId?: string }) {
  const isEdit = Boolean(recordId);
  const [id] = useState(() => recordId ?? newRecordId());
  const pending = usePendingUploads();
  const classroom = useAdminClassroom(id, isEdit);
  const organizations = useAdminOrganizations();
  const videos = useClassroomVideoOptions();
  const saveMutation = useSaveClassroom(id);
  const removeMutation = useDeleteClassroom();
  const remove = { mutateAsync: () => removeMutation.mutateAsync(id), isPending: removeMutation.isPending };
  const form = useForm<ClassroomInput, unknown, ClassroomValues>({
    resolver: zodResolver(classroomInputSchema),
    defaultValues: emptyClassroom,
  });
  const [organizationType, organizationId] = useWatch({
    control: form.control,
    name: ['organizationType', 'organizationId'],
  });
  const isUniversity = organizationType === 'Universidad';
  // the saved list counts while the organization is the one it was saved under; another one starts it empty
  const keepsSaved = Boolean(classroom.data && classroom.data.organizationId === organizationId);
  const [edits, setEdits] = useState<MemberEdits>(noEdits);
  const save = {
    mutateAsync: (values: ClassroomValues) =>
      saveMutation.mutateAsync({
        ...values,
        addedUserIds: [...edits.added.keys()],
        removedUserIds: keepsSaved ? [...edits.removed] : [],
      }),
    isPending: saveMutation.isPending,
  };
  const actions = useRecordForm({ form, save, remove, listPath: paths.adminClassrooms, pending });
  const { errors } = form.formState;
  const importPreview = useAdminImportPreview();
  const [importing, setImporting] = useState(false);

  useEffect(() => {
    if (classroom.data) {
      const { id: _id, isActive: _active, userCount: _count, adminUserEmail: _email, ...values } = classroom.data;
      form.reset({ ...values, previewImage: values.previewImage ?? '', previewPdf: values.previewPdf ?? '' });
    }
  }, [classroom.data, form]);

  if (isEdit && classroom.isPending) return <PageLoader />;
  if (isEdit && classroom.isError) throw classroom.error;

  const organizationOptions = (organizations.data ?? [])
    .filter((org) => org.type === organizationType)
    .map((org) => ({ value: org.id, label: org.title }));
  const clearMembers = () => {
    setEdits(noEdits());
    form.setValue('adminUserId', null);
  };

  return (
    <AdminPage title={isEdit ? 'Editar aula' : 'Crear aula'}>
      <Paper withBorder p="md" maw={1100}>
        <form onSubmit={actions.onSubmit} noValidate>
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Título" required {...form.register('title')} error={errors.title?.message} />
              <Controller
                control={form.control}
                name="accessType"
                render={({ field }) => (
                  <Select
                    label="Tipo de acceso"
                    required
                    placeholder="Selecciona un tipo de acceso"
                    data={[...classroomAccessTypes]}
                    value={field.value || null}
                    onChange={(value) => {
                      field.onChange(value ?? '');
                      form.clearErrors('accessType');
                    }}
                    error={errors.accessType?.message}
                  />
                )}
              />
              <Controller
                control={form.control}
                name="organizationType"
                render={({ field }) => (
                  <Select
                    label="Tipo de organización"
                    required
                    placeholder="Selecciona un tipo"
                    data={[...organizationTypes]}
                    value={field.value || null}
                    onChange={(value) => {
                      field.onChange(value ?? '');
                      form.setValue('organizationId', '');
                      clearMembers();
                      form.clearErrors('organizationType');
                    }}
                    error={errors.organizationType?.message}
                  />
                )}
              />
              <Controller
                control={form.control}
                name="organizationId"
                render={({ field }) => (
                  <Select
                    label="Organización"
                    required
                    searchable
                    placeholder={
                      organizationType ? 'Selecciona una organización' : 'Primero elige el tipo de organización'
                    }
                    disabled={!organizationType}
                    data={organizationOptions}
                    nothingFoundMessage="Sin resultados"
                    value={field.value || null}
                    onChange={(value) => {
                      field.onChange(value ?? '');
                      clearMembers();
                      form.clearErrors('organizationId');
                    }}
                    error={errors.organizationId?.message}
                  />
                )}
              />
              <Controller
                control={form.control}
                name="expiresAt"
                render={({ field }) => (
                  <DatesProvider settings={{ locale: 'es' }}>
                    <DatePickerInput
                      label="Fecha de expiración"
                      required
                      placeholder="Selecciona una fecha"
                      valueFormat="D [de] MMMM [de] YYYY"
                      nextLabel="Mes siguiente"
                      previousLabel="Mes anterior"
                      getDayProps={(date) => ({
                        'aria-label': dayjs(date).locale('es').format('D [de] MMMM [de] YYYY'),
                      })}
                      value={field.value ? dayjs(field.value).format('YYYY-MM-DD') : null}
                      onChange={(value) => {
                        // the aula stays open through the whole chosen day
                        field.onChange(value ? dayjs(value).endOf('day').toISOString() : '');
                        form.clearErrors('expiresAt');
                      }}
                      error={errors.expiresAt?.message}
                    />
                  </DatesProvider>
                )}
              />
            </SimpleGrid>
            <Textarea
              label="Descripción"
              autosize
              minRows={2}
              maxRows={6}
              {...form.register('description')}
              error={errors.description?.message}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <FormUploadField
                form={form}
                name="previewImage"
                label="Imagen de vista previa"
                hint="Tamaño mínimo recomendado: 1090x720 px. Formatos: jpeg, jpg, png."
                target="classroom-preview-image"
                recordId={id}
                required
                pending={pending}
              />
              <FormUploadField
                form={form}
                name="previewPdf"
                label="PDF de información previa"
                hint="Formato: pdf."
                target="classroom-preview-pdf"
                recordId={id}
                required
                pending={pending}
              />
            </SimpleGrid>

            <Controller
              control={form.control}
              name="procedureIds"
              render={({ field }) => (
                <Input.Wrapper
                  label={
                    <Title order={2} size="h4">
                      Videos
                    </Title>
                  }
                  error={errors.procedureIds?.message ?? errors.procedureIds?.root?.message}
                  labelElement="div"
                >
                  <SelectableTable<ClassroomVideoOption>
                    label="Videos del aula"
                    records={videos.data ?? []}
                    fetching={videos.isPending}
                    selectedIds={field.value}
                    onChange={(ids) => {
                      field.onChange(ids);
                      if (ids.length > 0) form.clearErrors('procedureIds');
                    }}
                    searchText={(video) => `${video.name}\n${video.tags.join(' ')} ${video.species} ${video.type}`}
                    columns={[
                      { accessor: 'name', title: 'Nombre' },
                      {
                        accessor: 'tags',
                        title: 'Etiquetas',
                        render: (video) => (
                          <Group gap={4}>
                            {video.tags.map((tag) => (
                              <Badge key={tag} variant="light" color="gray" c="dark.7" tt="none">
                                {tag}
                              </Badge>
                            ))}
                          </Group>
                        ),
                      },
                      { accessor: 'species', title: 'Especie' },
                      { accessor: 'type', title: 'Tipo' },
                    ]}
                  />
                </Input.Wrapper>
              )}
            />

            {isUniversity ? (
              <UniversityMembers
                classroomId={isEdit ? id : null}
                organizationId={organizationId}
                keepsSaved={keepsSaved}
                savedCount={keepsSaved ? (classroom.data?.userCount ?? 0) : 0}
                adminUserEmail={classroom.data?.adminUserEmail ?? null}
                edits={edits}
                onEditsChange={setEdits}
                form={form}
                onImport={() => setImporting(true)}
              />
            ) : null}

            <Group justify="flex-end" gap="sm">
              {isEdit && classroom.data && !classroom.data.isActive ? (
                <Button color="red" variant="outline" onClick={() => actions.setConfirming(true)}>
                  Eliminar
                </Button>
              ) : null}
              <Button variant="default" onClick={actions.goBack}>
                Cancelar
              </Button>
              <Button type="submit" loading={actions.saving}>
                Guardar
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <Modal opened={actions.confirming} onClose={() => actions.setConfirming(false)} title="Eliminar Aula" centered>
        <Text>{messages.classroomDeleteConfirmation}</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => actions.setConfirming(false)}>
            Cancelar
          </Button>
          <Button color="red" onClick={actions.onDelete} loading={actions.deleting}>
            Eliminar
          </Button>
        </Group>
      </Modal>
      <ImportMembersModal
        opened={importing}
        onClose={() => setImporting(false)}
        addLabel="a la selección"
        preview={(source) =>
          importPreview.mutateAsync({
            organizationId,
            classroomId: keepsSaved ? id : undefined,
            addedUserIds: [...edits.added.keys()],
            removedUserIds: [...edits.removed],
            source,
          })
        }
        onAdd={async (users) => setEdits((current) => withImported(current, users))}
      />
      {isEdit ? (
        <Stack mt="xl">
          <Title order={2} size="h3">
            Progreso del aula
          </Title>
          <ClassroomProgress scope="admin" id={id} />
        </Stack>
      ) : null}
    </AdminPage>
  );
}

function UniversityMembers(props: {
  classroomId: string | null;
  organizationId: string;
  keepsSaved: boolean;
  savedCount: number;
  adminUserEmail: string | null;
  edits: MemberEdits;
  onEditsChange: (edits: MemberEdits) => void;
  form: ReturnType<typeof useForm<ClassroomInput, unknown, ClassroomValues>>;
  onImport: () => void;
}) {
  const { form } = props;
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="end">
        <Title order={2} size="h4">
          Usuarios
        </Title>
        <Group gap="xs">
          <Button variant="default" onClick={props.onImport} disabled={!props.organizationId}>
            Importar usuarios
          </Button>
          {props.classroomId ? (
            <Button component="a" variant="default" href={adminExportHref(props.classroomId)} download>
              Exportar
            </Button>
          ) : null}
        </Group>
      </Group>
      {!props.organizationId ? (
        <Text size="sm" c="dimmed">
          Elige la organización para ver a sus miembros.
        </Text>
      ) : (
        <ClassroomMembersTable
          // another organization is another list: its own search, page and marks
          key={props.organizationId}
          source={{
            scope: 'admin',
            organizationId: props.organizationId,
            classroomId: props.keepsSaved && props.classroomId ? props.classroomId : undefined,
          }}
          savedCount={props.savedCount}
          edits={props.edits}
          onEditsChange={props.onEditsChange}
        />
      )}
      <Controller
        control={form.control}
        name="adminUserId"
        render={({ field }) => (
          <AdministratorField
            // another organization's members: a search and an e-mail of their own
            key={props.organizationId}
            organizationId={props.organizationId}
            savedEmail={props.keepsSaved ? props.adminUserEmail : null}
            value={field.value}
            onChange={field.onChange}
          />
        )}
      />
    </Stack>
  );
}

/** The aula's administrator among the organization's members: the server searches them by e-mail as the Admin types. */
function AdministratorField(props: {
  organizationId: string;
  savedEmail: string | null;
  value: string | null;
  onChange: (value: string | null) => void;
}) {
  const [chosenEmail, setChosenEmail] = useState(props.savedEmail);
  const source = { scope: 'admin', organizationId: props.organizationId } as const;
  return (
    <ServerSearchSelect
      label="Administrador del aula"
      description="Un miembro de la universidad que podrá editar la lista de usuarios."
      placeholder="Busca por correo"
      disabled={!props.organizationId}
      query={(text) => ({
        ...classroomCandidatesQuery(source, { q: text || undefined, sort: 'email', dir: 'asc', page: 1 }),
        enabled: Boolean(props.organizationId),
      })}
      toOptions={(page) => page.items.map((user) => ({ value: user.id, label: user.email }))}
      value={props.value ? { value: props.value, label: chosenEmail ?? props.value } : null}
      onChange={(option) => {
        setChosenEmail(option?.label ?? null);
        props.onChange(option?.value ?? null);
      }}
      maw={480}
    />
  );
}

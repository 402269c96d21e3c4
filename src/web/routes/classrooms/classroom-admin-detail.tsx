import { Alert, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { countOf } from '#shared/text.ts';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Navigate, useParams } from 'react-router';
import type { ClassroomMember } from '#shared/classrooms/classrooms.schemas.ts';
import { PageLoader } from '#web/components/page-loader.tsx';
import { useErrorModal } from '#web/components/error-modal.tsx';
import {
  managedExportHref,
  useAddManagedUsers,
  useChangeManagedUsers,
  useManagedClassroom,
  useManagedImportPreview,
} from '#web/features/classrooms/classrooms.api.ts';
import { ImportMembersModal } from '#web/features/classrooms/components/import-members-modal.tsx';
import {
  ClassroomMembersTable,
  noEdits,
  type MemberEdits,
} from '#web/features/classrooms/components/members-table.tsx';
import { longSpanishDate } from '#web/features/classrooms/format.ts';
import { paths } from '#web/paths.ts';
import { ClassroomProgress } from '#web/features/classrooms/components/classroom-progress.tsx';
import { LtiRosterButton } from '#web/features/lti/lti-roster-button.tsx';

/** /administrar-aula/aula/{id}: the aula administrator edits this aula's users list, and nothing else. */
export function ClassroomAdminDetailPage() {
  const { id = '' } = useParams();
  const classroom = useManagedClassroom(id);
  const changeUsers = useChangeManagedUsers(id);
  const addUsers = useAddManagedUsers(id);
  const importPreview = useManagedImportPreview(id);
  const { showAppError } = useErrorModal();
  const [edits, setEdits] = useState<MemberEdits>(noEdits);
  const [importing, setImporting] = useState(false);

  if (classroom.isPending) return <PageLoader />;
  if (classroom.isError) return <Navigate to={paths.classroomAdmin} replace />;
  const aula = classroom.data;
  const changed = edits.added.size > 0 || edits.removed.size > 0;

  async function save() {
    try {
      await changeUsers.mutateAsync({ addedUserIds: [...edits.added.keys()], removedUserIds: [...edits.removed] });
      setEdits(noEdits());
      notifications.show({ color: 'green', message: 'Se guardó la lista de usuarios del aula.' });
    } catch (error) {
      showAppError(error);
    }
  }

  async function addImported(users: ClassroomMember[]) {
    const result = await addUsers.mutateAsync(users.map((user) => user.id));
    notifications.show({
      color: 'green',
      message: `${result.added === 1 ? 'Se agregó' : 'Se agregaron'} ${countOf(result.added, 'usuario', 'usuarios')} al aula.`,
    });
  }

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1}>{aula.title}</Title>
          <Text c="dimmed">
            {aula.organizationTitle} · Disponible hasta el {longSpanishDate(aula.expiresAt)}
          </Text>
        </Stack>
        <Group justify="space-between" align="end">
          <Title order={2} size="h3">
            Usuarios del aula
          </Title>
          <Group gap="xs">
            <LtiRosterButton classroomId={id} disabled={changed} />
            <Button variant="default" onClick={() => setImporting(true)} disabled={changed}>
              Importar usuarios
            </Button>
            <Button component="a" variant="default" href={managedExportHref(id)} download>
              Exportar
            </Button>
          </Group>
        </Group>
        {changed ? <Alert color="yellow">Tienes cambios sin guardar en la lista de usuarios.</Alert> : null}
        <ClassroomMembersTable
          source={{ scope: 'classroom-admin', classroomId: id }}
          savedCount={aula.userCount}
          edits={edits}
          onEditsChange={setEdits}
        />
        <Group justify="flex-end">
          <Button variant="default" disabled={!changed} onClick={() => setEdits(noEdits())}>
            Descartar cambios
          </Button>
          <Button onClick={save} loading={changeUsers.isPending} disabled={!changed}>
            Guardar
          </Button>
        </Group>
        <Title order={2} size="h3">
          Progreso del aula
        </Title>
        <ClassroomProgress scope="classroom-admin" id={id} />
      </Stack>
      <ImportMembersModal
        opened={importing}
        onClose={() => setImporting(false)}
        addLabel="al aula"
        preview={(source) => importPreview.mutateAsync(source)}
        onAdd={addImported}
      />
    </Container>
  );
}

import { Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AdminClassroomRow } from '#shared/classrooms/classrooms.schemas.ts';
import { messages } from '#shared/messages.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { AdminDataTable } from '#web/components/console/admin-data-table.tsx';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import {
  useAdminClassrooms,
  useDeleteClassroom,
  useSetClassroomActive,
} from '#web/features/classrooms/classrooms.api.ts';
import { longSpanishDate } from '#web/features/classrooms/format.ts';
import { href, paths } from '#web/paths.ts';

type Notice =
  | { kind: 'activated' }
  | { kind: 'confirmToggle'; classroom: AdminClassroomRow }
  | { kind: 'delete'; classroom: AdminClassroomRow }
  | { kind: 'deleted' }
  | null;

/** What (de)activating does to the roster (spec 3 §4 empties it), said before anything changes. */
function rosterWarning(classroom: AdminClassroomRow): string {
  if (classroom.userCount === 0) return 'El aula no tiene usuarios.';
  return classroom.userCount === 1
    ? 'Se quitará el único usuario del aula.'
    : `Se quitarán los ${classroom.userCount} usuarios del aula.`;
}

export function AdminClassroomsPage() {
  const classrooms = useAdminClassrooms();
  const setActive = useSetClassroomActive();
  const remove = useDeleteClassroom();
  const { showAppError } = useErrorModal();
  const [notice, setNotice] = useState<Notice>(null);
  const [toggling, setToggling] = useState<string | null>(null);

  // spec 3 §2: toggling sets active and empties the users list, so a roster is never emptied before the admin confirms
  function askToggle(classroom: AdminClassroomRow) {
    if (!classroom.isActive && classroom.userCount === 0) void toggle(classroom);
    else setNotice({ kind: 'confirmToggle', classroom });
  }

  // then it confirms activation or offers deletion
  async function toggle(classroom: AdminClassroomRow) {
    setNotice(null);
    setToggling(classroom.id);
    try {
      await setActive.mutateAsync({ id: classroom.id, isActive: !classroom.isActive });
      setNotice(
        classroom.isActive ? { kind: 'delete', classroom: { ...classroom, isActive: false } } : { kind: 'activated' },
      );
    } catch (error) {
      showAppError(error);
    } finally {
      setToggling(null);
    }
  }

  async function confirmDelete(classroom: AdminClassroomRow) {
    try {
      await remove.mutateAsync(classroom.id);
      setNotice({ kind: 'deleted' });
    } catch (error) {
      setNotice(null);
      showAppError(error);
    }
  }

  return (
    <AdminPage
      title="Aulas"
      actions={
        <Button component={Link} to={paths.adminClassroomCreate}>
          Crear aula
        </Button>
      }
    >
      <AdminDataTable<AdminClassroomRow>
        mode="client"
        label="Aulas"
        records={classrooms.data ?? []}
        fetching={classrooms.isPending}
        initialSort={{ column: 'title', direction: 'asc' }}
        searchText={(row) => `${row.title} ${row.accessType} ${row.organizationTitle}`}
        rowLink={{ href: (row) => href.adminClassroom(row.id), column: 'title' }}
        columns={[
          {
            accessor: 'title',
            title: 'Título',
            sortable: true,
            render: (row) => (
              <Group gap={6} wrap="nowrap">
                <Text size="sm">{row.title}</Text>
                {!row.isActive ? (
                  <Badge color="gray" variant="light" tt="none">
                    Inactiva
                  </Badge>
                ) : null}
              </Group>
            ),
          },
          { accessor: 'accessType', title: 'Tipo', sortable: true },
          { accessor: 'organizationTitle', title: 'Organización', sortable: true },
          { accessor: 'videoCount', title: 'Videos', sortable: true, textAlign: 'right' },
          { accessor: 'userCount', title: 'Usuarios', sortable: true, textAlign: 'right' },
          { accessor: 'expiresAt', title: 'Expira', sortable: true, render: (row) => longSpanishDate(row.expiresAt) },
          {
            accessor: 'actions',
            title: 'Acciones',
            render: (row) => (
              <Group gap={6} wrap="nowrap" onClick={(event) => event.stopPropagation()}>
                <Button
                  component={Link}
                  to={href.adminClassroom(row.id)}
                  size="compact-sm"
                  variant="default"
                  aria-label={`Editar ${row.title}`}
                >
                  Editar
                </Button>
                <Button
                  size="compact-sm"
                  variant={row.isActive ? 'outline' : 'filled'}
                  color={row.isActive ? 'red.9' : undefined}
                  loading={toggling === row.id}
                  onClick={() => askToggle(row)}
                  aria-label={`${row.isActive ? 'Desactivar' : 'Activar'} ${row.title}`}
                >
                  {row.isActive ? 'Desactivar' : 'Activar'}
                </Button>
              </Group>
            ),
          },
        ]}
      />
      <Modal
        opened={notice?.kind === 'activated' || notice?.kind === 'deleted'}
        onClose={() => setNotice(null)}
        title="Aulas"
        centered
      >
        <Text>{notice?.kind === 'deleted' ? messages.classroomDeleted : messages.classroomActivated}</Text>
        <Group justify="flex-end" mt="lg">
          <Button onClick={() => setNotice(null)}>Aceptar</Button>
        </Group>
      </Modal>
      <Modal
        opened={notice?.kind === 'confirmToggle'}
        onClose={() => setNotice(null)}
        title={notice?.kind === 'confirmToggle' && !notice.classroom.isActive ? 'Activar aula' : 'Desactivar aula'}
        centered
      >
        {notice?.kind === 'confirmToggle' && (
          <Stack gap="xs">
            <Text fw={600}>{rosterWarning(notice.classroom)}</Text>
            <Text>
              {notice.classroom.isActive
                ? `«${notice.classroom.title}» dejará de estar disponible para sus usuarios. Después podrás eliminarla o dejarla inactiva.`
                : `«${notice.classroom.title}» volverá a estar disponible, sin usuarios: tendrás que agregarlos de nuevo.`}
            </Text>
          </Stack>
        )}
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setNotice(null)}>
            Cancelar
          </Button>
          <Button
            color={notice?.kind === 'confirmToggle' && notice.classroom.isActive ? 'red' : undefined}
            onClick={() => notice?.kind === 'confirmToggle' && void toggle(notice.classroom)}
          >
            {notice?.kind === 'confirmToggle' && !notice.classroom.isActive ? 'Activar' : 'Desactivar'}
          </Button>
        </Group>
      </Modal>
      <Modal opened={notice?.kind === 'delete'} onClose={() => setNotice(null)} title="Eliminar Aula" centered>
        <Text>{messages.classroomDeleteConfirmation}</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setNotice(null)}>
            Cancelar
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() => notice?.kind === 'delete' && confirmDelete(notice.classroom)}
          >
            Eliminar
          </Button>
        </Group>
      </Modal>
    </AdminPage>
  );
}

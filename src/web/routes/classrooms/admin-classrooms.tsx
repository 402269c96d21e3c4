import { Badge, Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AdminClassroomRow } from '#shared/classrooms/classrooms.schemas.ts';
import { messages } from '#shared/messages.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { AdminDataTable } from '#web/features/admin/components/admin-data-table.tsx';
import { AdminPage } from '#web/features/admin/components/admin-page.tsx';
import {
  useAdminClassrooms,
  useDeleteClassroom,
  useSetClassroomActive,
} from '#web/features/classrooms/classrooms.api.ts';
import { longSpanishDate } from '#web/features/classrooms/format.ts';
import { href, paths } from '#web/paths.ts';

type Notice = { kind: 'activated' } | { kind: 'delete'; classroom: AdminClassroomRow } | { kind: 'deleted' } | null;

export function AdminClassroomsPage() {
  const classrooms = useAdminClassrooms();
  const setActive = useSetClassroomActive();
  const remove = useDeleteClassroom();
  const { showAppError } = useErrorModal();
  const [notice, setNotice] = useState<Notice>(null);
  const [toggling, setToggling] = useState<string | null>(null);

  // spec 3 §2: toggling sets active and empties the users list, then confirms activation or offers deletion
  async function toggle(classroom: AdminClassroomRow) {
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
                  onClick={() => toggle(row)}
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

import { Anchor, Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AdminDiplomaRow } from '#shared/diplomas/diplomas.admin.schemas.ts';
import { messages } from '#shared/messages.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { AdminDataTable } from '#web/features/admin/components/admin-data-table.tsx';
import { AdminPage } from '#web/features/admin/components/admin-page.tsx';
import {
  useAdminDiplomas,
  useDeleteDiploma,
  useSetDiplomaActive,
} from '#web/features/diplomas/admin/diplomas.admin.api.ts';
import { useHeldWhileClosing } from '#web/lib/use-held-while-closing.ts';
import { href, paths } from '#web/paths.ts';

type Notice = { title: string; message: string };

/** /admin/diplomados: the list with Activar/Desactivar; deactivating offers 'Eliminar Diplomado'. */
export function AdminDiplomasPage() {
  const diplomas = useAdminDiplomas();
  const setActive = useSetDiplomaActive();
  const remove = useDeleteDiploma();
  const { showAppError } = useErrorModal();
  const [deleting, setDeleting] = useState<AdminDiplomaRow | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const shownNotice = useHeldWhileClosing(notice);
  const shownDeleting = useHeldWhileClosing(deleting);

  async function toggle(diploma: AdminDiplomaRow) {
    try {
      await setActive.mutateAsync({ id: diploma.id, isActive: !diploma.isActive });
      if (diploma.isActive) setDeleting(diploma);
      else setNotice({ title: 'Diplomado activado', message: messages.diplomaActivated });
    } catch (error) {
      showAppError(error);
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      setDeleting(null);
      setNotice({ title: 'Eliminar Diplomado', message: messages.diplomaDeleted });
    } catch (error) {
      setDeleting(null);
      showAppError(error);
    }
  }

  return (
    <AdminPage
      title="Diplomados"
      actions={
        <Button component={Link} to={paths.adminDiplomaCreate}>
          Crear nuevo diplomado
        </Button>
      }
    >
      <AdminDataTable<AdminDiplomaRow>
        mode="client"
        label="Diplomados"
        records={diplomas.data ?? []}
        fetching={diplomas.isPending}
        initialSort={{ column: 'createdAt', direction: 'desc' }}
        searchText={(diploma) => `${diploma.title} ${diploma.kind}`}
        columns={[
          {
            accessor: 'title',
            title: 'Título',
            sortable: true,
            render: (diploma) => (
              <Group gap={6} wrap="nowrap">
                <Text size="sm">{diploma.title}</Text>
                {diploma.isTest ? (
                  <Badge size="xs" color="gray">
                    Prueba
                  </Badge>
                ) : null}
              </Group>
            ),
          },
          {
            accessor: 'kind',
            title: 'Tipo',
            sortable: true,
            render: (diploma) => (diploma.kind === 'External' ? 'Externo' : 'CxVet'),
          },
          {
            accessor: 'edit',
            title: 'Editar',
            render: (diploma) => (
              <Button
                component={Link}
                to={href.adminDiploma(diploma.id)}
                size="compact-sm"
                variant="light"
                aria-label={`Editar ${diploma.title}`}
              >
                Editar
              </Button>
            ),
          },
          {
            accessor: 'isActive',
            title: 'Estado',
            sortable: true,
            render: (diploma) => (
              <Button
                size="compact-sm"
                // an outlined red label fails colour contrast: Desactivar is the neutral button
                variant={diploma.isActive ? 'default' : 'filled'}
                color={diploma.isActive ? undefined : 'green.9'}
                loading={setActive.isPending && setActive.variables?.id === diploma.id}
                onClick={() => void toggle(diploma)}
                aria-label={`${diploma.isActive ? 'Desactivar' : 'Activar'} ${diploma.title}`}
              >
                {diploma.isActive ? 'Desactivar' : 'Activar'}
              </Button>
            ),
          },
          {
            accessor: 'preview',
            title: 'Vista previa',
            render: (diploma) => (
              <Anchor
                href={href.adminDiplomaPreview(diploma.id)}
                target="_blank"
                rel="noopener"
                size="sm"
                aria-label={`Vista previa de ${diploma.title} (se abre en una pestaña nueva)`}
              >
                Vista previa
              </Anchor>
            ),
          },
          {
            accessor: 'createdAt',
            title: 'Creado',
            sortable: true,
            render: (diploma) => dayjs(diploma.createdAt).format('DD/MM/YYYY'),
          },
        ]}
      />

      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title="Eliminar Diplomado" centered>
        <Stack>
          <Text>{messages.diplomaDeleteConfirmation}</Text>
          <Text size="sm" c="dimmed">
            El diplomado «{shownDeleting?.title}» quedó desactivado. Si cancelas, se conserva inactivo.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              Cancelar
            </Button>
            <Button color="red" onClick={() => void confirmDelete()} loading={remove.isPending}>
              Eliminar
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal opened={notice !== null} onClose={() => setNotice(null)} title={shownNotice?.title} centered>
        <Text>{shownNotice?.message}</Text>
        <Group justify="flex-end" mt="lg">
          <Button onClick={() => setNotice(null)}>Aceptar</Button>
        </Group>
      </Modal>
    </AdminPage>
  );
}

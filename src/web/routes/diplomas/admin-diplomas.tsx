import { Anchor, Badge, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AdminDiplomaRow } from '#shared/diplomas/diplomas.admin.schemas.ts';
import { messages } from '#shared/messages.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { AdminDataTable } from '#web/components/console/admin-data-table.tsx';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import type { DiplomaActivationWarnings } from '#shared/diplomas/diplomas.admin.schemas.ts';
import {
  diplomaActivationWarnings,
  useAdminDiplomas,
  useDeleteDiploma,
  useSetDiplomaActive,
} from '#web/features/diplomas/admin/diplomas.admin.api.ts';
import { useHeldWhileClosing } from '#web/lib/use-held-while-closing.ts';
import { href, paths } from '#web/paths.ts';

type Notice = { title: string; message: string };

/** What deleting takes with it, said before anything changes. */
function enrolmentWarning(diploma: AdminDiplomaRow): string {
  if (diploma.userCount === 0) return 'El diplomado no tiene usuarios inscritos.';
  return diploma.userCount === 1
    ? 'Si lo eliminas, se quitará el único usuario inscrito, con su avance.'
    : `Si lo eliminas, se quitarán los ${diploma.userCount} usuarios inscritos, con su avance.`;
}

/**
 * /admin/diplomados: the list with Activar/Desactivar. 'Desactivar' first asks in 'Eliminar Diplomado':
 * 'Cancelar' changes nothing, 'Solo desactivar' keeps it inactive, 'Eliminar' deactivates and deletes it.
 */
export function AdminDiplomasPage() {
  const diplomas = useAdminDiplomas();
  const setActive = useSetDiplomaActive();
  const remove = useDeleteDiploma();
  const { showAppError } = useErrorModal();
  const [deleting, setDeleting] = useState<AdminDiplomaRow | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const shownNotice = useHeldWhileClosing(notice);
  const shownDeleting = useHeldWhileClosing(deleting);
  const [warned, setWarned] = useState<{ diploma: AdminDiplomaRow; warnings: DiplomaActivationWarnings } | null>(null);
  const shownWarned = useHeldWhileClosing(warned);

  async function toggle(diploma: AdminDiplomaRow) {
    if (diploma.isActive) {
      setDeleting(diploma);
      return;
    }
    try {
      // exams 'Sin asignar' and videos with nothing to play would go unnoticed by the Admin: say so first
      const warnings = await diplomaActivationWarnings(diploma.id);
      if (warnings.unassignedExams.length > 0 || warnings.videosWithoutFile.length > 0)
        setWarned({ diploma, warnings });
      else await activate(diploma);
    } catch (error) {
      showAppError(error);
    }
  }

  async function activate(diploma: AdminDiplomaRow) {
    setWarned(null);
    try {
      await setActive.mutateAsync({ id: diploma.id, isActive: true });
      setNotice({ title: 'Diplomado activado', message: messages.diplomaActivated });
    } catch (error) {
      showAppError(error);
    }
  }

  async function deactivateOnly() {
    if (!deleting) return;
    try {
      await setActive.mutateAsync({ id: deleting.id, isActive: false });
      setDeleting(null);
    } catch (error) {
      setDeleting(null);
      showAppError(error);
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await setActive.mutateAsync({ id: deleting.id, isActive: false });
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
          {shownDeleting && <Text fw={600}>{enrolmentWarning(shownDeleting)}</Text>}
          <Text size="sm">
            Si solo quieres ocultar «{shownDeleting?.title}», elige «Solo desactivar»: se conserva inactivo, con sus
            usuarios. Si cancelas, no cambia nada.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              Cancelar
            </Button>
            <Button
              variant="default"
              onClick={() => void deactivateOnly()}
              loading={setActive.isPending && !remove.isPending}
            >
              Solo desactivar
            </Button>
            <Button color="red" onClick={() => void confirmDelete()} loading={remove.isPending}>
              Eliminar
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal opened={warned !== null} onClose={() => setWarned(null)} title="Antes de activar" centered>
        <Stack>
          {shownWarned && shownWarned.warnings.unassignedExams.length > 0 && (
            <Stack gap={4}>
              <Text fw={600}>
                {shownWarned.warnings.unassignedExams.length === 1
                  ? 'Este examen está «Sin asignar» y no se mostrará a los alumnos:'
                  : 'Estos exámenes están «Sin asignar» y no se mostrarán a los alumnos:'}
              </Text>
              <List size="sm">
                {shownWarned.warnings.unassignedExams.map((title, index) => (
                  <List.Item key={`${index}-${title}`}>{title}</List.Item>
                ))}
              </List>
            </Stack>
          )}
          {shownWarned && shownWarned.warnings.videosWithoutFile.length > 0 && (
            <Stack gap={4}>
              <Text fw={600}>
                {shownWarned.warnings.videosWithoutFile.length === 1
                  ? 'Este video no tiene archivo; los alumnos solo podrán marcarlo como completado:'
                  : 'Estos videos no tienen archivo; los alumnos solo podrán marcarlos como completados:'}
              </Text>
              <List size="sm">
                {shownWarned.warnings.videosWithoutFile.map((title, index) => (
                  <List.Item key={`${index}-${title}`}>{title}</List.Item>
                ))}
              </List>
            </Stack>
          )}
          <Text size="sm">Puedes corregirlo en el editor del diplomado o activarlo así.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setWarned(null)}>
              Cancelar
            </Button>
            <Button onClick={() => warned && void activate(warned.diploma)} loading={setActive.isPending}>
              Activar de todos modos
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

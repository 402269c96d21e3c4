import { ActionIcon, Button, Group, Image, Modal, Select, Stack, Switch, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AdminDiplomaVideo } from '#shared/diplomas/diplomas.admin.schemas.ts';
import { errorMessages } from '#shared/error-messages.ts';
import { messages } from '#shared/messages.ts';
import { PageLoader } from '#web/components/page-loader.tsx';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { mediaPath } from '#web/components/console/upload-client.ts';
import { useHeldWhileClosing } from '#web/lib/use-held-while-closing.ts';
import { href } from '#web/paths.ts';
import {
  useDiplomaOptions,
  useDiplomaVideos,
  useVideoActions,
} from '#web/features/diplomas/admin/diplomas.admin.api.ts';
import { OwnVideoModal } from './own-video-modal.tsx';

/** Tab 2, 'Videos': ordered list with move up/down, preview, edit, active toggle and remove. */
export function DiplomaVideosTab({ diplomaId }: { diplomaId: string }) {
  const videos = useDiplomaVideos(diplomaId);
  const options = useDiplomaOptions();
  const actions = useVideoActions(diplomaId);
  const { showAppError } = useErrorModal();
  const [linking, setLinking] = useState(false);
  const [procedureId, setProcedureId] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ video: AdminDiplomaVideo | null } | null>(null);
  const [previewing, setPreviewing] = useState<AdminDiplomaVideo | null>(null);
  const preview = useHeldWhileClosing(previewing);
  const [removing, setRemoving] = useState<AdminDiplomaVideo | null>(null);

  const run = (promise: Promise<unknown>) => promise.catch(showAppError);

  if (videos.isPending) return <PageLoader />;
  if (videos.isError) throw videos.error;
  const list = videos.data;

  async function link() {
    if (!procedureId) return;
    try {
      await actions.link.mutateAsync(procedureId);
      setLinking(false);
      setProcedureId(null);
    } catch (error) {
      showAppError(error);
    }
  }

  return (
    <Stack>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={() => setLinking(true)}>
          Vincular video de la plataforma
        </Button>
        <Button onClick={() => setEditing({ video: null })}>Crear video</Button>
      </Group>
      {list.length === 0 ? (
        <Text c="dimmed">{errorMessages.DIPLOMA_NEEDS_VIDEO.message}</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped withTableBorder aria-label="Videos del diplomado">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Orden</Table.Th>
                <Table.Th>Título</Table.Th>
                <Table.Th>Vista previa</Table.Th>
                <Table.Th>Editar</Table.Th>
                <Table.Th>Activo</Table.Th>
                <Table.Th>Quitar</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((video, index) => (
                <Table.Tr key={video.id}>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Text size="sm" w={20}>
                        {index + 1}
                      </Text>
                      <ActionIcon
                        variant="default"
                        disabled={index === 0 || actions.move.isPending}
                        onClick={() => void run(actions.move.mutateAsync({ videoId: video.id, direction: 'up' }))}
                        aria-label={`Subir ${video.title}`}
                      >
                        ↑
                      </ActionIcon>
                      <ActionIcon
                        variant="default"
                        disabled={index === list.length - 1 || actions.move.isPending}
                        onClick={() => void run(actions.move.mutateAsync({ videoId: video.id, direction: 'down' }))}
                        aria-label={`Bajar ${video.title}`}
                      >
                        ↓
                      </ActionIcon>
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{video.title}</Text>
                    <Text size="xs" c="dimmed">
                      {video.kind === 'procedure' ? 'Video de la plataforma' : 'Video propio'}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      onClick={() => setPreviewing(video)}
                      aria-label={`Vista previa de ${video.title}`}
                    >
                      Ver
                    </Button>
                  </Table.Td>
                  <Table.Td>
                    {video.kind === 'own' ? (
                      <Button
                        size="compact-sm"
                        variant="light"
                        onClick={() => setEditing({ video })}
                        aria-label={`Editar ${video.title}`}
                      >
                        Editar
                      </Button>
                    ) : (
                      // the same control as an own video's: a catalogue procedure is edited on its own page
                      <Button
                        component={Link}
                        to={href.adminProcedure(video.procedureId ?? undefined)}
                        size="compact-sm"
                        variant="light"
                        aria-label={`Editar procedimiento ${video.title}`}
                      >
                        Editar
                      </Button>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Switch
                      checked={video.isActive}
                      onChange={(event) =>
                        void run(
                          actions.setActive.mutateAsync({ videoId: video.id, isActive: event.currentTarget.checked }),
                        )
                      }
                      aria-label={`Activo: ${video.title}`}
                    />
                  </Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      onClick={() => setRemoving(video)}
                      aria-label={`Quitar ${video.title}`}
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

      <Modal opened={linking} onClose={() => setLinking(false)} title="Vincular video de la plataforma" centered>
        <Stack>
          <Select
            label="Procedimiento"
            placeholder="Busca por nombre"
            searchable
            limit={50}
            data={(options.data?.procedures ?? []).map((procedure) => ({ value: procedure.id, label: procedure.name }))}
            value={procedureId}
            onChange={setProcedureId}
            nothingFoundMessage="Sin resultados"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setLinking(false)}>
              Cancelar
            </Button>
            <Button onClick={() => void link()} disabled={!procedureId} loading={actions.link.isPending}>
              Agregar
            </Button>
          </Group>
        </Stack>
      </Modal>

      <OwnVideoModal
        diplomaId={diplomaId}
        video={editing?.video ?? null}
        opened={editing !== null}
        onClose={() => setEditing(null)}
      />

      <Modal opened={previewing !== null} onClose={() => setPreviewing(null)} title={preview?.title} size="lg" centered>
        {preview?.kind === 'own' && preview.video ? (
          <video
            src={mediaPath(preview.video)}
            controls
            preload="metadata"
            style={{ width: '100%' }}
            aria-label={`Video: ${preview.title}`}
          />
        ) : preview?.previewImage ? (
          <Image src={mediaPath(preview.previewImage)} alt={`Vista previa: ${preview.title}`} radius="sm" />
        ) : (
          <Text c="dimmed">Sin vista previa.</Text>
        )}
        {preview?.description ? (
          <Text size="sm" mt="sm">
            {preview.description}
          </Text>
        ) : null}
      </Modal>

      <Modal opened={removing !== null} onClose={() => setRemoving(null)} title="Quitar video" centered>
        <Text>{messages.deleteConfirmation}</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setRemoving(null)}>
            Cancelar
          </Button>
          <Button
            color="red"
            loading={actions.remove.isPending}
            onClick={() => {
              const video = removing;
              setRemoving(null);
              if (video) void run(actions.remove.mutateAsync(video.id));
            }}
          >
            Quitar
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}

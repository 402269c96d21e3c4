import { ActionIcon, Alert, Button, Group, Modal, Stack, Switch, Table, Text } from '@mantine/core';
import { countOf } from '#shared/text.ts';
import { useState } from 'react';
import type { AdminExam } from '#shared/diplomas/diplomas.admin.schemas.ts';
import { errorMessages } from '#shared/error-messages.ts';
import { messages } from '#shared/messages.ts';
import { PageLoader } from '#web/components/page-loader.tsx';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { useDiplomaExams, useDiplomaVideos, useExamActions } from '#web/features/diplomas/admin/diplomas.admin.api.ts';
import { ExamModal } from './exam-modal.tsx';

/** Tab 4, 'Exámenes': title, video, edit, active toggle and remove; a new exam only while exams are fewer than videos. */
export function DiplomaExamsTab({ diplomaId }: { diplomaId: string }) {
  const exams = useDiplomaExams(diplomaId);
  const videos = useDiplomaVideos(diplomaId);
  const actions = useExamActions(diplomaId);
  const { showAppError } = useErrorModal();
  const [editing, setEditing] = useState<{ exam: AdminExam | null } | null>(null);
  const [removing, setRemoving] = useState<AdminExam | null>(null);

  if (exams.isPending || videos.isPending) return <PageLoader />;
  if (exams.isError) throw exams.error;
  if (videos.isError) throw videos.error;
  const canAdd = exams.data.length < videos.data.length;

  return (
    <Stack>
      {videos.data.length === 0 ? (
        <Alert color="yellow" variant="light">
          {errorMessages.DIPLOMA_NEEDS_VIDEO.message}
        </Alert>
      ) : !canAdd ? (
        <Alert color="gray" variant="light">
          {errorMessages.DIPLOMA_EXAM_LIMIT.message}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button onClick={() => setEditing({ exam: null })} disabled={!canAdd}>
          Agregar examen
        </Button>
      </Group>
      {exams.data.length === 0 ? (
        <Text c="dimmed">{messages.emptyTable}</Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped withTableBorder aria-label="Exámenes del diplomado">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Título</Table.Th>
                <Table.Th>Video</Table.Th>
                <Table.Th>Editar</Table.Th>
                <Table.Th>Activo</Table.Th>
                <Table.Th>Quitar</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {exams.data.map((exam) => (
                <Table.Tr key={exam.id}>
                  <Table.Td>
                    <Text size="sm">{exam.title}</Text>
                    <Text size="xs" c="dimmed">
                      {countOf(exam.questions.length, 'pregunta', 'preguntas')}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {exam.videoTitle ?? (
                      <Text size="sm" c="dimmed">
                        Sin asignar
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="compact-sm"
                      variant="light"
                      onClick={() => setEditing({ exam })}
                      aria-label={`Editar ${exam.title}`}
                    >
                      Editar
                    </Button>
                  </Table.Td>
                  <Table.Td>
                    <Switch
                      checked={exam.isActive}
                      onChange={(event) =>
                        void actions.setActive
                          .mutateAsync({ examId: exam.id, isActive: event.currentTarget.checked })
                          .catch(showAppError)
                      }
                      aria-label={`Activo: ${exam.title}`}
                    />
                  </Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      onClick={() => setRemoving(exam)}
                      aria-label={`Quitar ${exam.title}`}
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

      <ExamModal
        diplomaId={diplomaId}
        exam={editing?.exam ?? null}
        exams={exams.data}
        videos={videos.data}
        opened={editing !== null}
        onClose={() => setEditing(null)}
      />

      <Modal opened={removing !== null} onClose={() => setRemoving(null)} title="Quitar examen" centered>
        <Text>{messages.deleteConfirmation}</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setRemoving(null)}>
            Cancelar
          </Button>
          <Button
            color="red"
            onClick={() => {
              const exam = removing;
              setRemoving(null);
              if (exam) void actions.remove.mutateAsync(exam.id).catch(showAppError);
            }}
          >
            Quitar
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}

import { Alert, Button, Group, Loader, Radio, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { useExam, useRetakeExam, useSaveAnswer, useSubmitExam } from '#web/features/diplomas/member/diplomas.api.ts';

const statusText = {
  notStarted: 'Sin iniciar',
  inProgress: 'En progreso',
  passed: 'Aprobado',
  failed: 'No aprobado',
} as const;

/** One exam: answers saved as they are chosen; the score alone after a failed attempt; the correct answers once passed. */
export function ExamPanel({
  diplomaId,
  examId,
  isExternal,
}: {
  diplomaId: string;
  examId: string;
  isExternal: boolean;
}) {
  const exam = useExam(diplomaId, examId);
  const save = useSaveAnswer(diplomaId, examId);
  const submit = useSubmitExam(diplomaId, examId);
  const retake = useRetakeExam(diplomaId, examId);
  const { showAppError } = useErrorModal();
  const [chosen, setChosen] = useState<Record<string, number>>({});

  if (exam.isPending) return <Loader size="sm" aria-label="Cargando examen" />;
  if (!exam.data) return <Alert color="red">No se pudo cargar el examen.</Alert>;
  const view = exam.data;
  const answerOf = (questionId: string, saved: number) => chosen[questionId] ?? saved;
  const allAnswered = view.questions.every((question) => answerOf(question.id, question.userAnswer) >= 0);

  const choose = (questionId: string, value: string) => {
    const answer = Number(value);
    setChosen((current) => ({ ...current, [questionId]: answer }));
    save.mutate({ questionId, answer }, { onError: (error) => showAppError(error) });
  };

  const send = () =>
    submit.mutate(
      {
        answers: view.questions.map((question) => ({
          questionId: question.id,
          answer: answerOf(question.id, question.userAnswer),
        })),
      },
      {
        onSuccess: (result) => {
          setChosen({});
          notifications.show({
            color: result.passed || isExternal ? 'green' : 'red',
            title: result.passed ? 'Examen aprobado' : isExternal ? 'Examen completado' : 'Examen no aprobado',
            message: `Calificación: ${result.scorePercent.toFixed(2)}%`,
          });
        },
        onError: (error) => showAppError(error),
      },
    );

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text size="sm">Estado: {statusText[view.status]}</Text>
        {view.completed && <Text fw={700}>Calificación: {view.scorePercent?.toFixed(2)}%</Text>}
      </Group>
      {!isExternal && !view.completed && (
        <Text size="sm" c="dimmed">
          Se aprueba con {view.passThresholdPercent}% o más.
        </Text>
      )}
      {view.questions.map((question, index) => (
        <Radio.Group
          key={question.id}
          label={`${index + 1}. ${question.question}`}
          value={
            answerOf(question.id, question.userAnswer) >= 0 ? String(answerOf(question.id, question.userAnswer)) : null
          }
          onChange={(value) => choose(question.id, value)}
          readOnly={view.completed}
        >
          <Stack gap={6} mt="xs">
            {question.answers.map((answer, answerIndex) => {
              const isCorrect = view.passed && question.correctAnswer === answerIndex;
              const isWrongPick = view.passed && question.userAnswer === answerIndex && !isCorrect;
              return (
                <Radio
                  key={answerIndex}
                  value={String(answerIndex)}
                  disabled={view.completed}
                  label={`${answer}${isCorrect ? ' (respuesta correcta)' : ''}${isWrongPick ? ' (tu respuesta)' : ''}`}
                  color={isCorrect ? 'green' : undefined}
                />
              );
            })}
          </Stack>
        </Radio.Group>
      ))}
      {!view.completed && (
        <Button onClick={send} disabled={!allAnswered} loading={submit.isPending} w={{ base: '100%', sm: 'auto' }}>
          Enviar respuestas
        </Button>
      )}
      {view.completed && !view.passed && (
        <Button
          variant="light"
          onClick={() => retake.mutate(undefined, { onError: (error) => showAppError(error) })}
          loading={retake.isPending}
          w={{ base: '100%', sm: 'auto' }}
        >
          Volver a intentar
        </Button>
      )}
    </Stack>
  );
}

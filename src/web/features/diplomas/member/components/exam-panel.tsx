import { Alert, Button, Group, List, Loader, Radio, Stack, Text } from '@mantine/core';
import type { ExamView } from '#shared/diplomas/diplomas.schemas.ts';
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

type Question = ExamView['questions'][number];

/** A completed exam's question: every answer in full contrast; the chosen and the correct ones said in words and icons. */
function ReviewedQuestion({ number, question }: { number: number; question: Question }) {
  return (
    <Stack gap={6} component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
      <Text component="legend" fw={500} size="sm">
        {number}. {question.question}
      </Text>
      <List spacing={4} listStyleType="none" size="sm">
        {question.answers.map((answer, answerIndex) => {
          const chosen = question.userAnswer === answerIndex;
          const correct = question.correctAnswer === answerIndex;
          const mark = correct ? '✓' : chosen ? '✗' : '○';
          const note =
            chosen && correct
              ? 'tu respuesta, correcta'
              : chosen
                ? 'tu respuesta, incorrecta'
                : correct
                  ? 'respuesta correcta'
                  : null;
          return (
            <List.Item key={answerIndex}>
              <Text size="sm" fw={chosen ? 700 : 400}>
                <Text span aria-hidden="true" fw={700} c={correct ? 'green.9' : chosen ? 'red.9' : 'dimmed'}>
                  {mark}{' '}
                </Text>
                {answer}
                {note && ` (${note})`}
              </Text>
            </List.Item>
          );
        })}
      </List>
    </Stack>
  );
}

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
      {view.completed
        ? view.questions.map((question, index) => (
            <ReviewedQuestion key={question.id} number={index + 1} question={question} />
          ))
        : view.questions.map((question, index) => (
            <Radio.Group
              key={question.id}
              label={`${index + 1}. ${question.question}`}
              value={
                answerOf(question.id, question.userAnswer) >= 0
                  ? String(answerOf(question.id, question.userAnswer))
                  : null
              }
              onChange={(value) => choose(question.id, value)}
            >
              <Stack gap={6} mt="xs">
                {question.answers.map((answer, answerIndex) => (
                  <Radio key={answerIndex} value={String(answerIndex)} label={answer} />
                ))}
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

import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import type { AdminDiplomaVideo, AdminExam, ExamInput } from '#shared/diplomas/diplomas.admin.schemas.ts';
import { examInputSchema } from '#shared/diplomas/diplomas.admin.schemas.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { newRecordId } from '#web/components/console/form-errors.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useExamActions } from '#web/features/diplomas/admin/diplomas.admin.api.ts';

type Props = {
  diplomaId: string;
  exam: AdminExam | null;
  exams: AdminExam[];
  videos: AdminDiplomaVideo[];
  opened: boolean;
  onClose: () => void;
};

export function ExamModal(props: Props) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.exam ? 'Editar examen' : 'Agregar examen'}
      size="xl"
      centered
    >
      {props.opened ? <ExamForm {...props} /> : null}
    </Modal>
  );
}

type Draft = ExamInput;
const newQuestion = () => ({ question: '', answers: ['', ''], correctAnswer: -1 });

/** Every question has text, at least two filled answers and one marked correct. */
function isExamComplete(draft: Draft): boolean {
  return (
    draft.title.trim() !== '' &&
    draft.questions.length > 0 &&
    draft.questions.every(
      (question) =>
        question.question.trim() !== '' &&
        question.answers.length >= 2 &&
        question.answers.every((answer) => answer.trim() !== '') &&
        question.correctAnswer >= 0 &&
        question.correctAnswer < question.answers.length,
    )
  );
}

function ExamForm({ diplomaId, exam, exams, videos, onClose }: Props) {
  const [examId] = useState(() => exam?.id ?? newRecordId());
  const [draft, setDraft] = useState<Draft>(() =>
    exam
      ? { title: exam.title, videoId: exam.videoId, questions: exam.questions }
      : { title: '', videoId: null, questions: [newQuestion()] },
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { save } = useExamActions(diplomaId);
  const { showAppError } = useErrorModal();
  const locked = exam?.hasAnswers ?? false;

  const taken = new Set(exams.filter((other) => other.id !== examId && other.videoId).map((other) => other.videoId));
  const videoOptions = [
    { value: '', label: 'Sin asignar' },
    ...videos.map((video, index) => ({
      value: video.id,
      label: `${index + 1}. ${video.title}${taken.has(video.id) ? ' (ya tiene examen)' : ''}`,
      disabled: taken.has(video.id),
    })),
  ];

  const updateQuestion = (index: number, change: Partial<Draft['questions'][number]>) =>
    setDraft((current) => ({
      ...current,
      questions: current.questions.map((question, at) => (at === index ? { ...question, ...change } : question)),
    }));

  async function submit() {
    const parsed = examInputSchema.safeParse(draft);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message])));
      return;
    }
    try {
      await save.mutateAsync({ examId, input: parsed.data });
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.fields) setErrors(error.fields);
      else showAppError(error);
    }
  }

  return (
    <Stack>
      <TextInput
        label="Título del examen"
        required
        value={draft.title}
        onChange={(event) => {
          const title = event.currentTarget.value;
          setDraft((current) => ({ ...current, title }));
        }}
        error={errors.title}
      />
      <Select
        label="Video después del cual aparece"
        data={videoOptions}
        value={draft.videoId ?? ''}
        onChange={(value) => setDraft((current) => ({ ...current, videoId: value || null }))}
        allowDeselect={false}
        error={errors.videoId}
      />
      {locked ? (
        <Alert color="yellow" variant="light">
          Este examen ya tiene respuestas de alumnos: sus preguntas no se pueden cambiar.
        </Alert>
      ) : null}
      {errors.questions ? (
        <Alert color="red" variant="light">
          {errors.questions}
        </Alert>
      ) : null}
      {draft.questions.map((question, index) => (
        <Paper key={index} withBorder p="sm">
          <Stack gap="xs">
            <Group align="flex-end" wrap="nowrap">
              <TextInput
                label={`Pregunta ${index + 1}`}
                value={question.question}
                disabled={locked}
                onChange={(event) => updateQuestion(index, { question: event.currentTarget.value })}
                error={errors[`questions.${index}.question`]}
                style={{ flex: 1 }}
              />
              {!locked && draft.questions.length > 1 ? (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  mb={4}
                  onClick={() =>
                    setDraft((current) => ({
                      ...current,
                      questions: current.questions.filter((_, at) => at !== index),
                    }))
                  }
                  aria-label={`Quitar pregunta ${index + 1}`}
                >
                  ✕
                </ActionIcon>
              ) : null}
            </Group>
            <Text size="xs" c="dimmed">
              Marca la casilla de la respuesta correcta.
            </Text>
            {question.answers.map((answer, answerIndex) => (
              <Group key={answerIndex} gap="xs" wrap="nowrap">
                <Checkbox
                  checked={question.correctAnswer === answerIndex}
                  disabled={locked}
                  onChange={(event) =>
                    updateQuestion(index, { correctAnswer: event.currentTarget.checked ? answerIndex : -1 })
                  }
                  aria-label={`Respuesta correcta de la pregunta ${index + 1}: opción ${answerIndex + 1}`}
                />
                <TextInput
                  aria-label={`Pregunta ${index + 1}, respuesta ${answerIndex + 1}`}
                  placeholder={`Respuesta ${answerIndex + 1}`}
                  value={answer}
                  disabled={locked}
                  onChange={(event) => {
                    const text = event.currentTarget.value;
                    updateQuestion(index, {
                      answers: question.answers.map((each, at) => (at === answerIndex ? text : each)),
                    });
                  }}
                  style={{ flex: 1 }}
                />
                {!locked && question.answers.length > 2 ? (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    onClick={() =>
                      updateQuestion(index, {
                        answers: question.answers.filter((_, at) => at !== answerIndex),
                        correctAnswer:
                          question.correctAnswer === answerIndex
                            ? -1
                            : question.correctAnswer > answerIndex
                              ? question.correctAnswer - 1
                              : question.correctAnswer,
                      })
                    }
                    aria-label={`Quitar respuesta ${answerIndex + 1} de la pregunta ${index + 1}`}
                  >
                    ✕
                  </ActionIcon>
                ) : null}
              </Group>
            ))}
            {errors[`questions.${index}.answers`] || errors[`questions.${index}.correctAnswer`] ? (
              <Text size="sm" c="red">
                {errors[`questions.${index}.answers`] ?? errors[`questions.${index}.correctAnswer`]}
              </Text>
            ) : null}
            {!locked ? (
              <Button
                size="compact-sm"
                variant="subtle"
                onClick={() => updateQuestion(index, { answers: [...question.answers, ''] })}
                style={{ alignSelf: 'flex-start' }}
                aria-label={`Agregar respuesta a la pregunta ${index + 1}`}
              >
                Agregar respuesta
              </Button>
            ) : null}
          </Stack>
        </Paper>
      ))}
      {!locked ? (
        <Button
          variant="default"
          onClick={() => setDraft((current) => ({ ...current, questions: [...current.questions, newQuestion()] }))}
          style={{ alignSelf: 'flex-start' }}
        >
          Agregar pregunta
        </Button>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancelar
        </Button>
        <Button onClick={() => void submit()} disabled={!isExamComplete(draft)} loading={save.isPending}>
          Guardar examen
        </Button>
      </Group>
    </Stack>
  );
}

import { Button, Radio, Stack, Text, Textarea } from '@mantine/core';
import { creditMessages, likertText } from '#shared/credits/credits.rules.ts';

/** The course evaluation's statements, each answered on the Likert scale, and a comment. */
export function EvaluationForm(props: {
  statements: readonly string[];
  answers: (number | null)[];
  onAnswers: (answers: (number | null)[]) => void;
  comment: string;
  onComment: (comment: string) => void;
  /** an unanswered statement shows its message */
  missing: boolean;
  onSubmit: () => void;
  isSending: boolean;
}) {
  return (
    <Stack gap="sm" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
      <Text component="legend" fw={600} size="sm">
        Evaluación del curso
      </Text>
      {props.statements.map((statement, index) => (
        <Radio.Group
          key={statement}
          label={statement}
          required
          value={props.answers[index] === null ? null : String(props.answers[index])}
          onChange={(value) =>
            props.onAnswers(props.answers.map((answer, at) => (at === index ? Number(value) : answer)))
          }
          error={props.missing && props.answers[index] === null ? creditMessages.answers : undefined}
        >
          <Stack gap={4} mt={4}>
            {likertText.map((text, value) => (
              <Radio key={text} value={String(value + 1)} label={text} />
            ))}
          </Stack>
        </Radio.Group>
      ))}
      <Textarea
        label="Comentario"
        autosize
        minRows={2}
        maxLength={2000}
        value={props.comment}
        onChange={(event) => props.onComment(event.currentTarget.value)}
      />
      <Button onClick={props.onSubmit} loading={props.isSending} style={{ alignSelf: 'flex-start' }}>
        Enviar evaluación
      </Button>
    </Stack>
  );
}

import { Alert, Anchor, Card, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import {
  creditCategoryText,
  deliveryMethodText,
  evaluationStatementsOf,
  formatHours,
} from '#shared/credits/credits.rules.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { paths } from '#web/paths.ts';
import { useEvaluation, useSendEvaluation, type CreditTarget } from '#web/features/credits/credits.api.ts';

// the form (Radio groups, Textarea) loads only for a member who may answer it now
const EvaluationForm = lazy(() => import('./evaluation-form.tsx').then((m) => ({ default: m.EvaluationForm })));

/**
 * Under a diploma or a procedure with continuing-education credit: what it gives, and the course evaluation that
 * completes it.
 */
export function CourseEvaluation({ target, progressKey }: { target: CreditTarget; progressKey: string }) {
  const state = useEvaluation(target, progressKey);
  const send = useSendEvaluation(target);
  const { showAppError } = useErrorModal();
  const statements = evaluationStatementsOf(target.kind);
  const [answers, setAnswers] = useState<(number | null)[]>(() => statements.map(() => null));
  const [comment, setComment] = useState('');
  const [missing, setMissing] = useState(false);

  if (!state.data?.offer) return null;
  const { offer, canAnswer, sentAt, credit } = state.data;

  async function submit() {
    if (answers.some((answer) => answer === null)) return setMissing(true);
    setMissing(false);
    try {
      await send.mutateAsync({ answers: answers as number[], comment });
    } catch (error) {
      showAppError(error);
    }
  }

  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Educación continua
        </Title>
        <Text size="sm">
          {formatHours(offer.hours)} horas · {creditCategoryText[offer.category]} ·{' '}
          {deliveryMethodText[offer.deliveryMethod]}. Aprobado por{' '}
          {offer.bodies.map((body) => `${body.name} (${body.approvalNumber})`).join(', ')}.
        </Text>
        {credit ? (
          <Alert color="green" title="Crédito otorgado">
            Se registraron {formatHours(credit.hours)} horas.{' '}
            <Anchor component={Link} to={paths.profileCredits}>
              Ver mis créditos
            </Anchor>
          </Alert>
        ) : sentAt ? (
          <Alert color="yellow">Tu evaluación se recibió, pero el crédito no está vigente en esta fecha.</Alert>
        ) : !canAnswer ? (
          <Text size="sm" c="dimmed">
            {target.kind === 'diploma'
              ? 'Para obtener el crédito, mira al menos el 90 % de cada video, aprueba los exámenes y responde la evaluación del curso que se abre al terminar.'
              : 'Para obtener el crédito, mira al menos el 90 % del video completo y responde la evaluación del curso que se abre al terminar.'}
          </Text>
        ) : (
          <Suspense fallback={null}>
            <EvaluationForm
              statements={statements}
              answers={answers}
              onAnswers={setAnswers}
              comment={comment}
              onComment={setComment}
              missing={missing}
              onSubmit={() => void submit()}
              isSending={send.isPending}
            />
          </Suspense>
        )}
      </Stack>
    </Card>
  );
}

import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { CreditItem } from '#shared/credits/credits.schemas.ts';
import { creditCategoryText, deliveryMethodText, formatHours } from '#shared/credits/credits.rules.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { downloadCreditCertificate } from '#web/features/credits/credits.api.ts';

const day = new Intl.DateTimeFormat('es-MX', { dateStyle: 'long' });
const dayOf = (iso: string) => day.format(new Date(iso));

/** One credited item with its proof: dates, watched share, exam scores, evaluation, and its certificate. */
export function CreditItemCard({ item }: { item: CreditItem }) {
  const { showAppError } = useErrorModal();
  const [downloading, setDownloading] = useState(false);
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={item.title}>
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Text fw={700}>{item.title}</Text>
          {item.revokedAt ? (
            <Badge color="red" variant="light">
              Revocado el {dayOf(item.revokedAt)}
            </Badge>
          ) : (
            <Badge color="teal" variant="light">
              {formatHours(item.hours)} horas
            </Badge>
          )}
        </Group>
        <Text size="sm">
          {creditCategoryText[item.category]} · {deliveryMethodText[item.deliveryMethod]}
        </Text>
        <Text size="sm">
          {item.bodies.map((body) => `${body.name}: aprobación ${body.approvalNumber}`).join(' · ')}
        </Text>
        <Text size="sm" c="dimmed">
          Del {dayOf(item.startedAt)} al {dayOf(item.earnedAt)} · Video visto: {item.watchedPercent} %
          {item.exams.length > 0 && ` · Exámenes: ${item.exams.map((exam) => `${exam.scorePercent} %`).join(', ')}`} ·
          Evaluación enviada el {dayOf(item.evaluationSentAt)}
          {item.folio && ` · Folio ${item.folio}`}
        </Text>
        {!item.revokedAt && (
          <Group>
            <Button
              size="xs"
              variant="light"
              loading={downloading}
              aria-label={`Descargar constancia de ${item.title}`}
              onClick={() => {
                setDownloading(true);
                downloadCreditCertificate(item.id)
                  .catch(showAppError)
                  .finally(() => setDownloading(false));
              }}
            >
              Descargar constancia
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

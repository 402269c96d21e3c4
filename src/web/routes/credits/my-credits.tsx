import {
  Alert,
  Anchor,
  Button,
  Card,
  Container,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatHours } from '#shared/credits/credits.rules.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { paths } from '#web/paths.ts';
import { downloadCreditsCsv, downloadTranscript, useMyCredits } from '#web/features/credits/credits.api.ts';
import { LicenceForm } from '#web/features/credits/components/licence-form.tsx';
import { CreditItemCard } from '#web/features/credits/components/credit-item-card.tsx';

/** /perfil/creditos: the member's continuing-education hours per body and per year, each with its proof. */
export function MyCreditsPage() {
  const credits = useMyCredits();
  const { showAppError } = useErrorModal();
  const [busy, setBusy] = useState<string | null>(null);

  function download(name: string, run: () => Promise<void>) {
    setBusy(name);
    run()
      .catch(showAppError)
      .finally(() => setBusy(null));
  }

  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <Anchor component={Link} to={paths.profile} size="sm">
          ← Volver a Mi CxVet
        </Anchor>
        <Title order={1}>Mis créditos</Title>
        <Text>
          Horas de educación continua que ganaste en CxVet, por organismo acreditador y por año. CxVet es el proveedor
          del programa; cada organismo decide cómo las reconoce.
        </Text>
        {credits.isPending ? (
          <Loader aria-label="Cargando créditos" />
        ) : credits.isError ? (
          <Alert color="red">No se pudieron cargar tus créditos. Intenta de nuevo.</Alert>
        ) : (
          <>
            <Card withBorder radius="md" padding="md">
              <LicenceForm key={credits.data.licenceNumber} licenceNumber={credits.data.licenceNumber} />
            </Card>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Card withBorder radius="md" padding="md">
                <Title order={2} size="h4" mb="xs">
                  Horas por organismo
                </Title>
                {credits.data.byBody.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    Aún no tienes créditos.
                  </Text>
                ) : (
                  <Table fz="sm" aria-label="Horas por organismo">
                    <Table.Tbody>
                      {credits.data.byBody.map((entry) => (
                        <Table.Tr key={entry.body}>
                          <Table.Td>{entry.body}</Table.Td>
                          <Table.Td ta="right" fw={700}>
                            {formatHours(entry.hours)} h
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                )}
              </Card>
              <Card withBorder radius="md" padding="md">
                <Title order={2} size="h4" mb="xs">
                  Horas por año
                </Title>
                {credits.data.byYear.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    Sin años con créditos.
                  </Text>
                ) : (
                  <Stack gap="xs">
                    {credits.data.byYear.map((entry) => (
                      <Group key={entry.year} justify="space-between" wrap="wrap" gap="xs">
                        <Stack gap={0}>
                          <Text fw={700}>
                            {entry.year}: {formatHours(entry.hours)} h
                          </Text>
                          <Text size="xs" c="dimmed">
                            {entry.byBody.map((body) => `${body.body} ${formatHours(body.hours)} h`).join(' · ')}
                          </Text>
                        </Stack>
                        <Button
                          size="xs"
                          variant="light"
                          loading={busy === `transcript-${entry.year}`}
                          onClick={() => download(`transcript-${entry.year}`, () => downloadTranscript(entry.year))}
                        >
                          Constancia anual {entry.year} (PDF)
                        </Button>
                      </Group>
                    ))}
                  </Stack>
                )}
              </Card>
            </SimpleGrid>
            <Group justify="space-between" wrap="wrap">
              <Title order={2} size="h3">
                Programas acreditados
              </Title>
              {credits.data.items.length > 0 && (
                <Button
                  variant="default"
                  size="sm"
                  loading={busy === 'csv'}
                  onClick={() => download('csv', downloadCreditsCsv)}
                >
                  Descargar CSV
                </Button>
              )}
            </Group>
            {credits.data.items.length === 0 ? (
              <Text c="dimmed">
                Termina un diplomado con créditos de educación continua (videos vistos al 90 %, exámenes aprobados y la
                evaluación del curso) para verlo aquí.
              </Text>
            ) : (
              <Stack gap="sm">
                {credits.data.items.map((item) => (
                  <CreditItemCard key={item.id} item={item} />
                ))}
              </Stack>
            )}
          </>
        )}
      </Stack>
    </Container>
  );
}

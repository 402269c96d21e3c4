import { Alert, Button, Group, Paper, Radio, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import {
  manualPremiumMessages,
  manualPremiumPeriodLabels,
  manualPremiumPeriods,
  type ManualPremiumPeriod,
} from '#shared/membership/manual-premium.schemas.ts';
import { messages } from '#shared/messages.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { manualPremiumCandidatesQuery, useManualPremiumUpgrade } from '#web/features/users/users.api.ts';
import { ManualPremiumLinks } from '#web/features/users/components/manual-premium-links.tsx';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { ServerSearchSelect, type SearchOption } from '#web/components/console/server-search-select.tsx';
import { paths } from '#web/paths.ts';

export function AdminManualPremiumUpgradePage() {
  const [picked, setPicked] = useState<SearchOption | null>(null);
  const [period, setPeriod] = useState<ManualPremiumPeriod>('month');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const upgrade = useManualPremiumUpgrade();
  const { showError } = useErrorModal();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setDone(null);
    if (!picked) {
      setError(messages.requiredDot);
      return;
    }
    try {
      await upgrade.mutateAsync({ userId: picked.value, period });
      setDone(manualPremiumMessages.upgraded(period));
      setPicked(null);
    } catch {
      showError({ message: manualPremiumMessages.failed });
    }
  }

  return (
    <AdminPage
      title="Actualizar a premium manual"
      actions={<ManualPremiumLinks current={paths.adminManualPremiumUpgrade} />}
    >
      <Paper withBorder p="md" maw={640}>
        <form onSubmit={onSubmit} noValidate aria-label="Actualizar a premium manual">
          <Stack>
            <Text size="sm">Elige un usuario gratuito por su correo y el periodo de Premium.</Text>
            <ServerSearchSelect
              label="Correo del usuario"
              placeholder="Escribe para buscar por correo"
              required
              query={manualPremiumCandidatesQuery}
              toOptions={(users) => users.map((user) => ({ value: user.id, label: user.email }))}
              value={picked}
              onChange={(option) => {
                setPicked(option);
                setError(null);
                setDone(null);
              }}
              nothingFoundMessage="No hay usuarios gratuitos con ese correo"
              onSearchError={() => showError({ message: manualPremiumMessages.failed })}
              error={error}
            />
            <Radio.Group
              label="Periodo"
              required
              value={period}
              onChange={(value) => {
                setPeriod(value as ManualPremiumPeriod);
                setDone(null);
              }}
            >
              <Group mt={6}>
                {manualPremiumPeriods.map((value) => (
                  <Radio key={value} value={value} label={manualPremiumPeriodLabels[value]} />
                ))}
              </Group>
            </Radio.Group>
            {done ? (
              <Alert color="green" role="status">
                {done}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button type="submit" loading={upgrade.isPending}>
                Confirmar
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </AdminPage>
  );
}

import { Alert, Button, Group, Paper, Radio, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState, type FormEvent } from 'react';
import {
  manualPremiumMessages,
  manualPremiumPeriodLabels,
  manualPremiumPeriods,
  type ManualPremiumPeriod,
} from '#shared/membership/manual-premium.schemas.ts';
import { messages } from '#shared/messages.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { useManualPremiumCandidates, useManualPremiumUpgrade } from '#web/features/users/users.api.ts';
import {
  ManualPremiumLinks,
  useManualPremiumLoadFailure,
} from '#web/features/users/components/manual-premium-links.tsx';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { paths } from '#web/paths.ts';

type Picked = { id: string; email: string };

export function AdminManualPremiumUpgradePage() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [picked, setPicked] = useState<Picked | null>(null);
  const [period, setPeriod] = useState<ManualPremiumPeriod>('month');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const candidates = useManualPremiumCandidates(picked && search === picked.email ? '' : debounced);
  const upgrade = useManualPremiumUpgrade();
  const { showError } = useErrorModal();
  useManualPremiumLoadFailure(candidates.isError);

  const options = (candidates.data ?? []).map((user) => ({ value: user.id, label: user.email }));
  if (picked && !options.some((option) => option.value === picked.id))
    options.unshift({ value: picked.id, label: picked.email });

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setDone(null);
    if (!picked) {
      setError(messages.requiredDot);
      return;
    }
    try {
      await upgrade.mutateAsync({ userId: picked.id, period });
      setDone(manualPremiumMessages.upgraded(period));
      setPicked(null);
      setSearch('');
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
            <Select
              label="Correo del usuario"
              placeholder="Escribe para buscar por correo"
              required
              searchable
              clearable
              data={options}
              // the server already filtered by e-mail
              filter={({ options: all }) => all}
              searchValue={search}
              onSearchChange={setSearch}
              value={picked?.id ?? null}
              onChange={(value, option) => {
                setPicked(value && option ? { id: value, email: option.label } : null);
                setError(null);
                setDone(null);
              }}
              nothingFoundMessage={candidates.isFetching ? 'Buscando…' : 'No hay usuarios gratuitos con ese correo'}
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

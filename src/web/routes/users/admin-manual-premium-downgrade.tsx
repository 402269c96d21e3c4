import { Alert, Button, Group, Paper, Select, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { manualPremiumMessages } from '#shared/membership/manual-premium.schemas.ts';
import { messages } from '#shared/messages.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { useManualPremiumDowngrade, useManualPremiumUsers } from '#web/features/users/users.api.ts';
import {
  ManualPremiumLinks,
  useManualPremiumLoadFailure,
} from '#web/features/users/components/manual-premium-links.tsx';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { paths } from '#web/paths.ts';

export function AdminManualPremiumDowngradePage() {
  const users = useManualPremiumUsers();
  const downgrade = useManualPremiumDowngrade();
  const [userId, setUserId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const { showError } = useErrorModal();
  useManualPremiumLoadFailure(users.isError);

  const options = (users.data ?? []).map((user) => ({ value: user.id, label: `${user.email} (${user.plan})` }));

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setDone(false);
    if (!userId) {
      setError(messages.requiredDot);
      return;
    }
    try {
      await downgrade.mutateAsync({ userId });
      setDone(true);
      setUserId(null);
    } catch {
      showError({ message: manualPremiumMessages.failed });
    }
  }

  return (
    <AdminPage
      title="Quitar premium manual"
      actions={<ManualPremiumLinks current={paths.adminManualPremiumDowngrade} />}
    >
      <Paper withBorder p="md" maw={640}>
        <form onSubmit={onSubmit} noValidate aria-label="Quitar premium manual">
          <Stack>
            <Text size="sm">Elige un usuario con Premium manual; volverá a ser Gratis.</Text>
            <Select
              label="Correo del usuario"
              placeholder={users.isPending ? 'Cargando…' : 'Escribe para buscar por correo'}
              required
              searchable
              clearable
              data={options}
              value={userId}
              onChange={(value) => {
                setUserId(value);
                setError(null);
                setDone(false);
              }}
              nothingFoundMessage="No hay usuarios con Premium manual"
              error={error}
            />
            {done ? (
              <Alert color="green" role="status">
                {manualPremiumMessages.downgraded}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button type="submit" loading={downgrade.isPending}>
                Confirmar
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </AdminPage>
  );
}

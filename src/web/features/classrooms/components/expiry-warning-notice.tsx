import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { ExpiryWarning } from '#shared/classrooms/classrooms.schemas.ts';
import { useCurrentUser } from '#web/features/accounts/current-user.api.ts';
import { claimExpiryWarnings } from '#web/features/classrooms/classrooms.api.ts';

const checkedUsers = new Set<string>();

/** Spec 3 §4: once per threshold, a member is told their aula expires soon; the server records that it was shown. */
export function ExpiryWarningNotice() {
  const { user } = useCurrentUser();
  const [warnings, setWarnings] = useState<ExpiryWarning[]>([]);
  const userId = user?.id;

  useEffect(() => {
    if (!userId || checkedUsers.has(userId)) return;
    checkedUsers.add(userId);
    claimExpiryWarnings()
      .then(setWarnings)
      .catch(() => {});
  }, [userId]);

  const close = () => setWarnings([]);
  return (
    <Modal opened={warnings.length > 0} onClose={close} title="Aviso de expiración de aula" centered>
      <Stack gap="xs">
        {warnings.map((warning) => (
          <Text key={warning.classroomId}>
            El aula <strong>{warning.title}</strong> expira en {warning.timeLeft}. Después de esa fecha ya no podrás ver
            sus videos.
          </Text>
        ))}
      </Stack>
      <Group justify="flex-end" mt="lg">
        <Button onClick={close}>Aceptar</Button>
      </Group>
    </Modal>
  );
}

import { Button, Group, Modal, Text } from '@mantine/core';
import { Link } from 'react-router';
import { messages } from '#shared/messages.ts';
import { paths } from '#web/paths.ts';

/** 'Aviso': the guide needs a Premium membership; Obtener goes to sign-up for a guest, to the profile for a member. */
export function GuideNoticeModal({
  opened,
  onClose,
  isGuest,
}: {
  opened: boolean;
  onClose: () => void;
  isGuest: boolean;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Aviso" centered>
      <Text>{messages.guideNeedsPremium}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          Cancelar
        </Button>
        <Button component={Link} to={isGuest ? paths.signUp : paths.profile}>
          Obtener
        </Button>
      </Group>
    </Modal>
  );
}

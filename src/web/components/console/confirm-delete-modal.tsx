import { Button, Group, Modal, Text } from '@mantine/core';
import { messages } from '#shared/messages.ts';

/** The spec's generic delete confirmation. */
export function ConfirmDeleteModal(props: {
  opened: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  loading?: boolean;
}) {
  return (
    <Modal opened={props.opened} onClose={props.onCancel} title="Eliminar" centered>
      <Text>{messages.deleteConfirmation}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={props.onCancel}>
          Cancelar
        </Button>
        <Button color="red" onClick={props.onConfirm} loading={props.loading}>
          Continuar
        </Button>
      </Group>
    </Modal>
  );
}

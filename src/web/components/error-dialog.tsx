import { Button, Group, Modal, Text } from '@mantine/core';

/** The global error modal's window, loaded the first time an error is shown (see error-modal.tsx). */
export function ErrorDialog(props: { opened: boolean; title: string; message: string | undefined; onClose: () => void }) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} centered>
      <Text>{props.message}</Text>
      <Group justify="flex-end" mt="lg">
        <Button onClick={props.onClose}>Aceptar</Button>
      </Group>
    </Modal>
  );
}

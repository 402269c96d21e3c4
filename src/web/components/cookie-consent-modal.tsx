import { Button, Group, Modal, Text } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { storageKeys } from '#web/lib/storage-keys.ts';

export function CookieConsentModal() {
  const [accepted, setAccepted] = useLocalStorage({
    key: storageKeys.cookiesAccepted,
    defaultValue: false,
    getInitialValueInEffect: false,
  });

  return (
    <Modal
      opened={!accepted}
      onClose={() => setAccepted(true)}
      title="USO DE COOKIES"
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      centered
    >
      <Text size="sm">
        Usamos cookies propias para mantener tu sesión iniciada y recordar tus preferencias. Al
        continuar navegando en CxVet aceptas su uso.
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button onClick={() => setAccepted(true)}>ACEPTAR</Button>
      </Group>
    </Modal>
  );
}

import { Button, Group, Text } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { useId, useLayoutEffect, useRef } from 'react';
import { storageKeys } from '#web/lib/storage-keys.ts';
import classes from './cookie-consent-modal.module.css';

/**
 * The first visit's cookie notice, a native modal <dialog> drawn like Mantine's centred Modal. Mantine's Modal
 * brought its transition, portal, focus trap and scroll lock (≈ 8 KiB brotli) onto every guest page for this
 * one notice (issue #13); the browser's dialog already keeps focus inside, makes the page behind it inert and
 * gives it the dialog role.
 */
export function CookieConsentModal() {
  const [accepted, setAccepted] = useLocalStorage({
    key: storageKeys.cookiesAccepted,
    defaultValue: false,
    getInitialValueInEffect: false,
  });
  return accepted ? null : <CookieNotice onAccept={() => setAccepted(true)} />;
}

function CookieNotice({ onAccept }: { onAccept: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();

  // before the first paint, so the notice is there from the start
  useLayoutEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  return (
    <dialog
      ref={dialog}
      className={classes.dialog}
      aria-labelledby={titleId}
      aria-describedby={textId}
      // only ACEPTAR closes it: Escape is refused, and should the browser close it anyway it opens again
      onCancel={(event) => event.preventDefault()}
      onClose={(event) => event.currentTarget.isConnected && event.currentTarget.showModal()}
    >
      <header className={classes.header}>
        <h2 id={titleId} className={classes.title}>
          USO DE COOKIES
        </h2>
      </header>
      <div className={classes.body}>
        <Text size="sm" id={textId}>
          Usamos cookies propias para mantener tu sesión iniciada y recordar tus preferencias. Al
          continuar navegando en CxVet aceptas su uso.
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button onClick={onAccept}>ACEPTAR</Button>
        </Group>
      </div>
    </dialog>
  );
}

import { Button, Container, Group, Text } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { useEffect, useId, useState } from 'react';
import { useLocation, useMatch } from 'react-router';
import { storageKeys } from '#web/lib/storage-keys.ts';
import { paths } from '#web/paths.ts';
import { NativeModal } from './native-modal.tsx';
import classes from './native-dialog.module.css';

const title = 'USO DE COOKIES';
const text =
  'Usamos cookies propias para mantener tu sesión iniciada y recordar tus preferencias. Al continuar navegando en CxVet aceptas su uso.';

/**
 * Spec 1's notice, shown on every page until ACEPTAR. Escape hides it for the current page only (it is a dialog);
 * the next page shows it again. A verifier must read a certificate at once, so there it is a bar above the page.
 */
function useCookieNotice() {
  const [accepted, setAccepted] = useLocalStorage({
    key: storageKeys.cookiesAccepted,
    defaultValue: false,
    getInitialValueInEffect: false,
  });
  const { pathname } = useLocation();
  const [hiddenOn, setHiddenOn] = useState<string | null>(null);
  const onVerification = useMatch(paths.certificateVerification) !== null;
  return {
    shown: !accepted && hiddenOn !== pathname,
    asBar: onVerification,
    accept: () => setAccepted(true),
    hide: () => setHiddenOn(pathname),
  };
}

/**
 * The notice as a native modal <dialog> drawn like Mantine's centred Modal. Mantine's Modal brought its transition,
 * portal, focus trap and scroll lock (≈ 8 KiB brotli) onto every guest page for this one notice; the
 * browser's dialog already keeps focus inside, makes the page behind it inert and gives it the dialog role.
 */
export function CookieConsentModal() {
  const notice = useCookieNotice();
  if (!notice.shown || notice.asBar) return null;
  return (
    <NativeModal
      opened
      title={title}
      textSize="sm"
      text={text}
      button="ACEPTAR"
      onButton={notice.accept}
      escapable
      onBrowserClose={notice.hide}
    />
  );
}

/** The notice as a non-modal bar in the page's flow, above the header: it covers nothing. */
export function CookieConsentBar() {
  const notice = useCookieNotice();
  const titleId = useId();
  const textId = useId();
  const visible = notice.shown && notice.asBar;
  const { hide } = notice;

  useEffect(() => {
    if (!visible) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && hide();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [visible, hide]);

  if (!visible) return null;
  return (
    <section role="dialog" aria-labelledby={titleId} aria-describedby={textId} className={classes.bar}>
      <Container size="xl">
        <Group justify="space-between" gap="sm" py="xs">
          <div>
            <Text id={titleId} fw={700} size="sm">
              {title}
            </Text>
            <Text id={textId} size="sm">
              {text}
            </Text>
          </div>
          <Button onClick={notice.accept}>ACEPTAR</Button>
        </Group>
      </Container>
    </section>
  );
}

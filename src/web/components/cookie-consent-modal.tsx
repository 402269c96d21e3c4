import { useLocalStorage } from '@mantine/hooks';
import { storageKeys } from '#web/lib/storage-keys.ts';
import { NativeModal } from './native-modal.tsx';

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
  return (
    <NativeModal
      opened
      title="USO DE COOKIES"
      textSize="sm"
      text="Usamos cookies propias para mantener tu sesión iniciada y recordar tus preferencias. Al continuar navegando en CxVet aceptas su uso."
      button="ACEPTAR"
      onButton={onAccept}
      // only ACEPTAR closes it: Escape is refused, and should the browser close it anyway it opens again
      escapable={false}
      onBrowserClose={(dialog) => dialog.isConnected && dialog.showModal()}
    />
  );
}

import { createContext, use, useCallback, useMemo, useState, type ReactNode } from 'react';
import { AppError } from '#shared/errors.ts';
import { errorMessages } from '#shared/error-messages.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { NativeModal } from './native-modal.tsx';

export type ErrorModalContent = { title?: string; message: string };

type ErrorModalApi = {
  showError: (content: ErrorModalContent) => void;
  /** Shows an API error's own text, or the fallback for anything unexpected. */
  showAppError: (error: unknown, fallback?: ErrorModalContent) => void;
};

const ErrorModalContext = createContext<ErrorModalApi | null>(null);

const defaultTitle = 'ERROR';

export function errorContent(error: unknown, fallback?: ErrorModalContent): ErrorModalContent {
  if (error instanceof ApiError) return { title: error.title, message: error.message };
  if (error instanceof AppError) return { message: errorMessages[error.code].message };
  return fallback ?? { message: errorMessages.INTERNAL.message };
}

/**
 * The error modal's window: a native modal <dialog> drawn like Mantine's centred Modal, as the cookie notice is.
 * It is part of the app's first code, not a chunk of its own: errors come most often when the connection fails,
 * which is no time to fetch code, and Mantine's Modal would have brought ~45 KiB of shared code onto every guest
 * page. The browser keeps focus inside, makes the page behind it inert, and Escape closes it.
 */
function ErrorDialog(props: { content: ErrorModalContent | null; onClose: () => void }) {
  const opened = props.content !== null;
  // the last content stays while the dialog closes, so its text does not vanish first
  const [shown, setShown] = useState<ErrorModalContent | null>(props.content);
  if (props.content !== null && props.content !== shown) setShown(props.content);
  return (
    <NativeModal
      opened={opened}
      title={shown?.title ?? defaultTitle}
      text={shown?.message}
      button="Aceptar"
      onButton={props.onClose}
      escapable
      // Escape, or the browser closing it: the state follows
      onBrowserClose={() => opened && props.onClose()}
    />
  );
}

export function ErrorModalProvider({ children }: { children: ReactNode }) {
  const [content, setContent] = useState<ErrorModalContent | null>(null);
  const close = useCallback(() => setContent(null), []);

  const showAppError = useCallback(
    (error: unknown, fallback?: ErrorModalContent) => setContent(errorContent(error, fallback)),
    [],
  );
  const value = useMemo(() => ({ showError: setContent, showAppError }), [showAppError]);

  return (
    <ErrorModalContext value={value}>
      {children}
      <ErrorDialog content={content} onClose={close} />
    </ErrorModalContext>
  );
}

export function useErrorModal(): ErrorModalApi {
  const api = use(ErrorModalContext);
  if (!api) throw new Error('useErrorModal must be used inside ErrorModalProvider');
  return api;
}

import { createContext, lazy, Suspense, use, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { AppError } from '#shared/errors.ts';
import { errorMessages } from '#shared/messages.ts';
import { ApiError } from '#web/lib/api-client.ts';

export type ErrorModalContent = { title?: string; message: string };

type ErrorModalApi = {
  showError: (content: ErrorModalContent) => void;
  /** Shows an API error's own text, or the fallback for anything unexpected. */
  showAppError: (error: unknown, fallback?: ErrorModalContent) => void;
};

// Mantine's Modal (transition, portal, focus trap, scroll lock) is not on the first page's path (issue #13), but it is
// fetched once the page is idle: errors come most often when the connection fails, which is no time to fetch code
const loadErrorDialog = () => import('./error-dialog.tsx');
const ErrorDialog = lazy(() => loadErrorDialog().then((module) => ({ default: module.ErrorDialog })));

function whenIdle(run: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(run, { timeout: 5000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(run, 2000);
  return () => window.clearTimeout(id);
}

const ErrorModalContext = createContext<ErrorModalApi | null>(null);

const defaultTitle = 'ERROR';

export function errorContent(error: unknown, fallback?: ErrorModalContent): ErrorModalContent {
  if (error instanceof ApiError) return { title: error.title, message: error.message };
  if (error instanceof AppError) return { message: errorMessages[error.code].message };
  return fallback ?? { message: errorMessages.INTERNAL.message };
}

export function ErrorModalProvider({ children }: { children: ReactNode }) {
  const [content, setContent] = useState<ErrorModalContent | null>(null);
  // once shown it stays mounted, so closing it plays Modal's exit transition
  const [shown, setShown] = useState(false);
  if (content !== null && !shown) setShown(true);
  const close = () => setContent(null);
  // a failed prefetch is tried again by the first error that needs the dialog
  useEffect(() => whenIdle(() => void loadErrorDialog().catch(() => {})), []);

  const showAppError = useCallback(
    (error: unknown, fallback?: ErrorModalContent) => setContent(errorContent(error, fallback)),
    [],
  );
  const value = useMemo(() => ({ showError: setContent, showAppError }), [showAppError]);

  return (
    <ErrorModalContext value={value}>
      {children}
      {shown && (
        <Suspense fallback={null}>
          <ErrorDialog opened={content !== null} onClose={close} title={content?.title ?? defaultTitle} message={content?.message} />
        </Suspense>
      )}
    </ErrorModalContext>
  );
}

export function useErrorModal(): ErrorModalApi {
  const api = use(ErrorModalContext);
  if (!api) throw new Error('useErrorModal must be used inside ErrorModalProvider');
  return api;
}

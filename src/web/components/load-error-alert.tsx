import { Text } from '@mantine/core';
import { lazy, Suspense } from 'react';

/** The message without Mantine's Alert, when its code cannot load either (the connection that failed the data). */
function PlainAlert({ children }: { children: string }) {
  return (
    <Text role="alert" c="red.9">
      {children}
    </Text>
  );
}

// Mantine's Alert, and the guest pages' chunk it is part of, load only on the failure they show
const ErrorAlert = lazy(() =>
  import('./error-alert.tsx').then(
    (m) => ({ default: m.ErrorAlert }),
    () => ({ default: PlainAlert }),
  ),
);

/**
 * A member page's message when its data could not be loaded, as Mantine's red Alert (role="alert"); shown as plain red
 * text while the Alert's code loads, so a slow connection does not hide that the page failed.
 */
export function LoadErrorAlert({ children }: { children: string }) {
  return (
    <Suspense fallback={<PlainAlert>{children}</PlainAlert>}>
      <ErrorAlert>{children}</ErrorAlert>
    </Suspense>
  );
}

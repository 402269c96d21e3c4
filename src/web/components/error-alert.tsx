import { Alert } from '@mantine/core';

/** A page's red message when its data could not be loaded (loaded by LoadErrorAlert when it is shown). */
export function ErrorAlert({ children }: { children: string }) {
  return <Alert color="red">{children}</Alert>;
}

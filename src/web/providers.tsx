// Mantine's global styles; each component's stylesheet comes with the component (scripts/vite/mantine-styles.ts)
import 'virtual:mantine-core-styles.css';
import './global.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorModalProvider } from '#web/components/error-modal.tsx';
import { LazyNotifications } from '#web/components/lazy-notifications.tsx';
import { cssVariablesResolver, theme } from '#web/theme.ts';

export function Providers({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} forceColorScheme="light">
        <LazyNotifications />
        <ErrorModalProvider>{children}</ErrorModalProvider>
      </MantineProvider>
    </QueryClientProvider>
  );
}

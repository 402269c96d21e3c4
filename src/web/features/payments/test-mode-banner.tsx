import { Box, Text } from '@mantine/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PaymentsConfig } from '#shared/payments/payments.schemas.ts';
import { api } from '#web/lib/api-client.ts';

export const testModeText = 'Modo de pruebas: los pagos son simulados';

// same key and shape as the accounts feature's payments config: one request for both. The root route loads it
// before the first paint, so the bar is there from the start instead of pushing the page down (issue #13).
export const paymentsConfigQuery = queryOptions({
  queryKey: ['payments-config'],
  queryFn: () => api.get<PaymentsConfig>('/api/payments/config'),
  staleTime: Infinity,
});

/**
 * A thin bar on every page while the server runs the simulated payment provider, so nobody takes
 * the demo checkout for a real one. Nothing shows while loading or with a real provider.
 */
export function TestModeBanner() {
  const config = useQuery(paymentsConfigQuery);
  if (config.data?.provider !== 'simulado') return null;
  return (
    <Box component="aside" aria-label="Aviso de pagos" bg="#fff3bf" px="sm" py={2} style={{ borderBottom: '1px solid #f0c419' }}>
      <Text size="xs" fw={600} c="#4a3500" ta="center">
        {testModeText}
      </Text>
    </Box>
  );
}

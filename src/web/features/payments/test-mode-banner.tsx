import { Box, Text } from '@mantine/core';
import { usePaymentsConfig } from './payments.api.ts';

const testModeText = 'Modo de pruebas: los pagos son simulados';

/**
 * A thin bar on every page while the server runs the simulated payment provider, so nobody takes
 * the demo checkout for a real one. Nothing shows while loading or with a real provider.
 */
export function TestModeBanner() {
  const config = usePaymentsConfig();
  if (config.data?.provider !== 'simulado') return null;
  return (
    <Box component="aside" aria-label="Aviso de pagos" bg="#fff3bf" px="sm" py={2} style={{ borderBottom: '1px solid #f0c419' }}>
      <Text size="xs" fw={600} c="#4a3500" ta="center">
        {testModeText}
      </Text>
    </Box>
  );
}

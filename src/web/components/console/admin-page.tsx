import { Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A console page: its h1 title, optional buttons on the right, then the content. */
export function AdminPage({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <Stack gap="md" maw={1200}>
      <Group justify="space-between" align="center" gap="sm">
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          {title}
        </Title>
        {actions ? <Group gap="xs">{actions}</Group> : null}
      </Group>
      {children}
    </Stack>
  );
}

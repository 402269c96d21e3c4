import { Anchor, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { errorMessages } from '#shared/error-messages.ts';
import { paths } from '#web/paths.ts';

export function NotFoundPage() {
  return (
    <Container size="sm" py={64}>
      <Stack align="center" gap="md">
        <Text fz={64} fw={800} c="blue.9" lh={1} aria-hidden>
          404
        </Text>
        <Title order={1} ta="center">
          {errorMessages.NOT_FOUND.message}
        </Title>
        <Anchor component={Link} to={paths.home}>
          Volver al inicio
        </Anchor>
      </Stack>
    </Container>
  );
}

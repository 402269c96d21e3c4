import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { errorMessages } from '#shared/error-messages.ts';
import { NotFoundPage } from '#web/routes/not-found.tsx';

/** Route error boundary: a 404 answer renders the not-found page, anything else a retry. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;

  return (
    <Container size="sm" py={64}>
      <Stack align="center" gap="md">
        <Title order={1} ta="center">
          ERROR
        </Title>
        <Text ta="center">{errorMessages.INTERNAL.message}</Text>
        <Button onClick={() => window.location.reload()}>Recargar página</Button>
      </Stack>
    </Container>
  );
}

import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Container,
  Group,
  Modal,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { Link } from 'react-router';
import type { DeviceKind, DeviceSession } from '#shared/accounts/devices.schemas.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { useLogout } from '#web/features/accounts/current-user.api.ts';
import { useCloseOtherSessions, useCloseSession, useDeviceSessions } from '#web/features/accounts/accounts.api.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { paths } from '#web/paths.ts';

const kindLabels: Record<DeviceKind, string> = {
  desktop: 'Computadora',
  mobile: 'Teléfono',
  tablet: 'Tableta',
  unknown: 'Dispositivo',
};

const dateTime = new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeStyle: 'short' });
const relative = new Intl.RelativeTimeFormat('es', { numeric: 'auto' });

/** 'hace 5 minutos', 'ayer'… for recent times, the date beyond a week. */
function lastActive(iso: string): string {
  const minutes = Math.round((Date.now() - new Date(iso).getTime()) / 60_000);
  if (minutes < 5) return 'Activo ahora';
  if (minutes < 60) return relative.format(-minutes, 'minute');
  if (minutes < 24 * 60) return relative.format(-Math.round(minutes / 60), 'hour');
  if (minutes < 7 * 24 * 60) return relative.format(-Math.round(minutes / (24 * 60)), 'day');
  return dateTime.format(new Date(iso));
}

/** /perfil/dispositivos: the member's signed-in sessions, each closable, and the one holding the video. */
export function ProfileDevicesPage() {
  const sessions = useDeviceSessions();

  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <Anchor component={Link} to={paths.profile} size="sm">
          ← Volver a Mi CxVet
        </Anchor>
        <Title order={1}>Mis dispositivos</Title>
        <Text>
          Estas son las sesiones abiertas con tu cuenta. Si no reconoces alguna, ciérrala y cambia tu contraseña.
        </Text>
        <DevicesContent sessions={sessions} />
      </Stack>
    </Container>
  );
}

function DevicesContent({ sessions }: { sessions: ReturnType<typeof useDeviceSessions> }) {
  if (sessions.isPending) {
    return (
      <Stack role="status" aria-label="Cargando dispositivos">
        <Skeleton height={120} radius="md" />
        <Skeleton height={120} radius="md" />
      </Stack>
    );
  }
  if (sessions.isError) {
    if (sessions.error instanceof ApiError && sessions.error.status === 401) {
      return (
        <Alert color="yellow" role="alert" title="Tu sesión se cerró">
          <Text size="sm" mb="xs">
            La sesión de este dispositivo ya no está activa.
          </Text>
          <Anchor component={Link} to={paths.login} fw={700}>
            Iniciar sesión
          </Anchor>
        </Alert>
      );
    }
    return (
      <Alert color="red" role="alert" title="Error">
        <Text size="sm" mb="xs">
          No se pudo cargar la lista de dispositivos, intenta más tarde.
        </Text>
        <Button size="compact-sm" variant="light" color="red" onClick={() => void sessions.refetch()}>
          Reintentar
        </Button>
      </Alert>
    );
  }

  const list = sessions.data;
  if (list.length === 0) return <Text c="dimmed">No hay sesiones abiertas.</Text>;
  const player = list.find((session) => session.isPlaying);
  const others = list.filter((session) => !session.isCurrent);

  return (
    <Stack gap="lg">
      <Alert color="blue" variant="light" title="Un dispositivo a la vez">
        <Text size="sm">
          Los videos completos se reproducen en un solo dispositivo a la vez.{' '}
          {player
            ? `Ahora se reproducen en: ${player.device}${player.isCurrent ? ' (este dispositivo)' : ''}.`
            : 'Ahora no se reproducen en ningún dispositivo.'}
        </Text>
      </Alert>
      <Stack
        gap="md"
        component="ul"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
        aria-label="Sesiones abiertas"
      >
        {list.map((session) => (
          <SessionCard key={session.id} session={session} />
        ))}
      </Stack>
      <CloseOthersButton count={others.length} />
    </Stack>
  );
}

function SessionCard({ session }: { session: DeviceSession }) {
  const close = useCloseSession();
  const logout = useLogout();
  const { showAppError } = useErrorModal();

  function onClose() {
    if (session.isCurrent) {
      logout.mutate(undefined, { onError: (error) => showAppError(error) });
      return;
    }
    close.mutate(session.id, {
      onSuccess: () => notifications.show({ color: 'green', message: `Se cerró la sesión en ${session.device}.` }),
      onError: (error) => showAppError(error),
    });
  }

  return (
    <Card component="li" withBorder radius="md" padding="lg" aria-label={session.device}>
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={2}>
            <Text fw={700}>{session.device}</Text>
            <Text size="sm" c="dimmed">
              {kindLabels[session.kind]}
            </Text>
          </Stack>
          <Group gap={6}>
            {session.isCurrent && (
              <Badge color="#1b5e20" tt="none">
                Este dispositivo
              </Badge>
            )}
            {session.isPlaying && (
              <Badge color="blue.9" tt="none">
                Reproduciendo aquí
              </Badge>
            )}
          </Group>
        </Group>
        <Text size="sm">
          <Text span fw={600}>
            Ubicación:{' '}
          </Text>
          {session.place}
          {session.ipAddress ? ` · IP ${session.ipAddress}` : ''}
        </Text>
        <Text size="sm">
          <Text span fw={600}>
            Última actividad:{' '}
          </Text>
          {lastActive(session.lastActiveAt)}
        </Text>
        <Text size="sm">
          <Text span fw={600}>
            Sesión iniciada:{' '}
          </Text>
          {dateTime.format(new Date(session.signedInAt))}
        </Text>
        <Group justify="flex-end" mt="xs">
          <Button
            variant="default"
            color="red"
            onClick={onClose}
            loading={close.isPending || logout.isPending}
            aria-label={session.isCurrent ? 'Cerrar sesión en este dispositivo' : `Cerrar sesión en ${session.device}`}
          >
            Cerrar sesión
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function CloseOthersButton({ count }: { count: number }) {
  const [opened, modal] = useDisclosure(false);
  const closeOthers = useCloseOtherSessions();
  const { showAppError } = useErrorModal();

  function confirm() {
    closeOthers.mutate(undefined, {
      onSuccess: ({ closed }) => {
        modal.close();
        notifications.show({
          color: 'green',
          message:
            closed === 1 ? 'Se cerró la sesión en 1 dispositivo.' : `Se cerró la sesión en ${closed} dispositivos.`,
        });
      },
      onError: (error) => {
        modal.close();
        showAppError(error);
      },
    });
  }

  return (
    <>
      <Group>
        <Button
          color="red"
          variant="light"
          onClick={modal.open}
          disabled={count === 0}
          h="auto"
          py={8}
          maw="100%"
          styles={{ label: { whiteSpace: 'normal', textAlign: 'center' } }}
        >
          Cerrar sesión en todos los demás dispositivos
        </Button>
        {count === 0 && (
          <Text size="sm" c="dimmed">
            No hay sesiones abiertas en otros dispositivos.
          </Text>
        )}
      </Group>
      <Modal opened={opened} onClose={modal.close} title="Cerrar sesión en los demás dispositivos" centered>
        <Text>
          {count === 1
            ? 'Se cerrará la sesión en 1 dispositivo. Para volver a usarlo habrá que iniciar sesión de nuevo.'
            : `Se cerrará la sesión en ${count} dispositivos. Para volver a usarlos habrá que iniciar sesión de nuevo.`}{' '}
          Este dispositivo seguirá con la sesión abierta.
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={modal.close}>
            Cancelar
          </Button>
          <Button color="red" onClick={confirm} loading={closeOthers.isPending}>
            Cerrar sesiones
          </Button>
        </Group>
      </Modal>
    </>
  );
}

import { Alert, Anchor, Button, Card, Container, Group, List, Loader, Stack, Text, Title } from '@mantine/core';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import { useState } from 'react';
import { Link } from 'react-router';
import type { DataExport } from '#shared/privacy/privacy.schemas.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { exportFileUrl, usePrivacyExport, useRequestExport } from '#web/features/privacy/privacy.api.ts';
import { DeleteAccountModal } from '#web/features/privacy/components/delete-account-modal.tsx';
import { paths } from '#web/paths.ts';

const longDateTime = (iso: string) => dayjs(iso).locale('es').format('D [de] MMMM [de] YYYY, HH:mm');
const megabytes = (bytes: number) =>
  `${Math.max(0.1, bytes / 1_048_576).toLocaleString('es-MX', { maximumFractionDigits: 1 })} MB`;

function ExportStatus({ current }: { current: DataExport | null }) {
  if (!current) return <Text size="sm">Aún no has pedido tus datos.</Text>;
  if (current.status === 'PENDIENTE') {
    return (
      <Group gap="xs" role="status">
        <Loader size="sm" aria-hidden />
        <Text size="sm">Preparando… Te avisaremos por correo cuando esté listo; puedes cerrar esta página.</Text>
      </Group>
    );
  }
  if (current.status === 'LISTA' && current.expiresAt) {
    return (
      <Stack gap="xs">
        <Text size="sm" role="status">
          Disponible hasta el {longDateTime(current.expiresAt)}
          {current.sizeBytes ? ` · ${megabytes(current.sizeBytes)}` : ''}
        </Text>
        <Group>
          <Button component="a" href={exportFileUrl(current.id)} download>
            Descargar archivo ZIP
          </Button>
        </Group>
      </Stack>
    );
  }
  if (current.status === 'FALLIDA') {
    return (
      <Text size="sm" role="status" c="red.8">
        No pudimos preparar tu archivo. Pide uno nuevo; si vuelve a fallar, escríbenos desde la página de contacto.
      </Text>
    );
  }
  return (
    <Text size="sm" role="status">
      Tu último archivo ya expiró
      {current.expiresAt ? ` (estuvo disponible hasta el ${longDateTime(current.expiresAt)})` : ''}. Puedes pedir uno
      nuevo.
    </Text>
  );
}

/** /perfil/privacidad: the member's data rights (ARCO): download everything, or delete the account. */
export function ProfilePrivacyPage() {
  const state = usePrivacyExport();
  const request = useRequestExport();
  const { showAppError } = useErrorModal();
  const [deleting, setDeleting] = useState(false);
  const current = state.data?.export ?? null;

  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <div>
          <Anchor component={Link} to={paths.profile} size="sm">
            ← Mi CxVet
          </Anchor>
          <Title order={1} mt="xs">
            Privacidad y mis datos
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            Tus derechos de acceso, rectificación, cancelación y oposición (ARCO). Consulta el{' '}
            <Anchor component={Link} to={paths.privacy} underline="always">
              aviso de privacidad
            </Anchor>
            .
          </Text>
        </div>

        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="descargar-datos">
          <Stack gap="sm">
            <Title order={2} size="h3" id="descargar-datos">
              Descargar mis datos
            </Title>
            <Text size="sm">
              Un archivo ZIP con todo lo que CxVet guarda sobre ti: perfil, consentimientos con sus fechas, membresía y
              pagos, aulas, diplomados, resultados de exámenes, constancias en PDF e historial de visualización. Lo
              preparamos en unos minutos, te enviamos un enlace por correo y queda disponible 7 días.
            </Text>
            {state.isPending ? (
              <Loader size="sm" aria-label="Cargando el estado de tu archivo" />
            ) : state.isError ? (
              <Alert color="red">No se pudo consultar el estado de tu archivo. Recarga la página.</Alert>
            ) : (
              <ExportStatus current={current} />
            )}
            {!state.isPending && current?.status !== 'PENDIENTE' && (
              <Group>
                <Button
                  variant={current?.status === 'LISTA' ? 'default' : 'filled'}
                  loading={request.isPending}
                  onClick={() => request.mutate(undefined, { onError: (error) => showAppError(error) })}
                >
                  {current?.status === 'LISTA' ? 'Preparar uno nuevo' : 'Descargar mis datos'}
                </Button>
              </Group>
            )}
          </Stack>
        </Card>

        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="preferencias">
          <Stack gap="xs">
            <Title order={2} size="h3" id="preferencias">
              Correos promocionales y noticias
            </Title>
            <Text size="sm">
              Guardamos cuándo y cómo aceptaste o retiraste cada consentimiento; el historial viene en tu archivo.
              Cámbialos cuando quieras en{' '}
              <Anchor component={Link} to={paths.profileAccount} underline="always">
                Mi cuenta
              </Anchor>{' '}
              o con el enlace «Dejar de recibir correos» de cada correo promocional.
            </Text>
          </Stack>
        </Card>

        <Card
          withBorder
          radius="md"
          padding="lg"
          component="section"
          aria-labelledby="eliminar-cuenta"
          style={{ borderColor: 'var(--mantine-color-red-6)' }}
        >
          <Stack gap="sm">
            <Title order={2} size="h3" id="eliminar-cuenta">
              Eliminar mi cuenta
            </Title>
            <List size="sm" spacing={4}>
              <List.Item>Si tienes una suscripción activa, primero la cancelamos con el proveedor de pagos.</List.Item>
              <List.Item>
                Borramos tu nombre, correo, teléfono, ciudad, preferencias, aulas, avance en diplomados, dónde ibas en
                cada video y tus favoritos.
              </List.Item>
              <List.Item>
                De tus pagos solo conservamos montos y fechas, sin tus datos, como lo exige la contabilidad.
              </List.Item>
              <List.Item>Tus constancias siguen verificables sin tu nombre, o las revocamos: tú eliges.</List.Item>
              <List.Item>
                Si ganaste créditos de educación continua, su registro para auditorías de los organismos acreditadores
                (nombre, cédula, asistencia, exámenes y evaluación) se conserva cuatro años; si eliges revocar, los
                créditos también se revocan.
              </List.Item>
              <List.Item>
                Cerramos tu sesión en todos tus dispositivos y te enviamos un último correo de confirmación.
              </List.Item>
            </List>
            <Text size="sm">Si quieres conservar una copia, descarga tus datos antes.</Text>
            <Group>
              <Button color="red" variant="outline" onClick={() => setDeleting(true)}>
                Eliminar mi cuenta
              </Button>
            </Group>
          </Stack>
        </Card>
      </Stack>
      <DeleteAccountModal opened={deleting} onClose={() => setDeleting(false)} />
    </Container>
  );
}

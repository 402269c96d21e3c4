import { Alert, Anchor, Button, Card, Container, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Suspense, useEffect, useRef, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmailText } from '#web/components/email-text.tsx';
import { useCardCheckoutReturn } from '#web/features/payments/use-card-return.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { useConfirmPesosSubscription, useConfirmSubscription } from '#web/features/payments/payments.api.ts';
import { useProfile } from '#web/features/accounts/accounts.api.ts';
import { MembershipCard } from '#web/features/accounts/components/membership-card.tsx';
import { CertificatesCard } from '#web/routes/accounts/profile-cards.ts';
import { failedPaymentBanner } from '#web/features/accounts/membership-labels.ts';
import { paths } from '#web/paths.ts';

const profileLoadFailed = 'No se pudo recuperar usuario';

function Row({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap" align="baseline">
      <Text fw={600} size="sm" miw={110}>
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {value || '—'}
      </Text>
    </Group>
  );
}

/** The Premium pass paid by card, back from Mercado Pago's page. */
const passNotices = {
  approved: { color: 'green', title: 'Bienvenido a Premium', message: 'Tu membresía Premium está activa.' },
  pending: {
    color: 'yellow',
    title: 'Pago pendiente',
    message: 'Aún no se confirma tu pago; tu membresía se actualizará en cuanto se confirme.',
  },
};

/** /perfil: 'Mi CxVet'. */
export function ProfilePage() {
  const profile = useProfile();
  const [params, setParams] = useSearchParams();
  const confirm = useConfirmSubscription();
  const confirmPesos = useConfirmPesosSubscription();
  const { showError, showAppError } = useErrorModal();
  const returned = params.get('subscription_id');
  const handled = useRef(false);
  useCardCheckoutReturn(passNotices);

  useEffect(() => {
    if (profile.isError) showError({ message: profileLoadFailed });
  }, [profile.isError, showError]);

  useEffect(() => {
    if (handled.current) return;
    if (params.get('pago') === 'cancelado') {
      handled.current = true;
      notifications.show({
        color: 'yellow',
        title: 'Pago cancelado',
        message: 'No se realizó ningún cambio en tu membresía.',
      });
      setParams({}, { replace: true });
      return;
    }
    // a one-time card payment's return (it names its payment) is read back by useCardCheckoutReturn
    const fromMercadoPago = params.get('pago') === 'mercadopago' && !params.has('payment_id');
    if (!returned && !fromMercadoPago) return;
    handled.current = true;
    const options = {
      onSuccess: (result: { isPremium: boolean }) => {
        notifications.show(
          result.isPremium
            ? { color: 'green', title: 'Bienvenido a Premium', message: 'Tu membresía Premium está activa.' }
            : {
                color: 'yellow',
                title: 'Pago pendiente',
                message: 'Aún no se confirma tu pago; tu membresía se actualizará en cuanto se confirme.',
              },
        );
        setParams({}, { replace: true });
      },
      onError: (error: unknown) => showAppError(error),
    };
    // Mercado Pago's return carries nothing we trust: the server reads the member's newest checkout back
    if (returned) confirm.mutate(returned, options);
    else confirmPesos.mutate(undefined, options);
  }, [params, returned, confirm, confirmPesos, setParams, showAppError]);

  if (profile.isPending) return <Loader m="xl" aria-label="Cargando perfil" />;
  if (!profile.data) {
    return (
      <Container py="xl">
        <Title order={1}>Mi CxVet</Title>
        <Alert color="red" mt="md">
          {profileLoadFailed}
        </Alert>
      </Container>
    );
  }
  const { personal, preferences, membership, certificates } = profile.data;

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Title order={1}>Mi CxVet</Title>
        {membership.paymentFailed && (
          <Alert color="red" variant="filled" title="Pago no realizado">
            {failedPaymentBanner(membership)}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Card withBorder radius="md" padding="lg">
            <Stack gap="xs">
              <Group justify="space-between">
                <Title order={2} size="h3">
                  Información personal
                </Title>
                <Button component={Link} to={paths.profileAccount} variant="light" size="xs">
                  Editar
                </Button>
              </Group>
              <Row label="Nombre" value={personal.name} />
              <Row label="Correo" value={<EmailText email={personal.email} />} />
              <Row label="Teléfono" value={personal.phoneNumberDisplay} />
              <Row label="País" value={personal.country} />
              <Row label="Ciudad" value={personal.city} />
              <Row label="Universidad" value={personal.organizationTitle ?? personal.homeUniversity} />
            </Stack>
          </Card>
          <MembershipCard membership={membership} />
          <Card withBorder radius="md" padding="lg">
            <Stack gap="xs">
              <Title order={2} size="h3">
                Preferencias de correo
              </Title>
              <Row label="Promociones" value={preferences.promoMail ? 'Sí, quiero recibirlas' : 'No'} />
              <Row label="Noticias" value={preferences.newsMail ? 'Sí, quiero recibirlas' : 'No'} />
              <Anchor component={Link} to={paths.profileAccount} size="sm">
                Cambiar preferencias
              </Anchor>
              <Anchor component={Link} to={paths.profilePrivacy} size="sm">
                Privacidad: descargar mis datos o eliminar mi cuenta
              </Anchor>
            </Stack>
          </Card>
          <Card withBorder radius="md" padding="lg">
            <Stack gap="xs">
              <Title order={2} size="h3">
                Pagos
              </Title>
              <Text size="sm">Consulta el detalle de tu suscripción y tu historial de pagos.</Text>
              <Anchor component={Link} to={paths.profilePayment} size="sm">
                Ver pagos
              </Anchor>
            </Stack>
          </Card>
          <Card withBorder radius="md" padding="lg">
            <Stack gap="xs">
              <Title order={2} size="h3">
                Dispositivos
              </Title>
              <Text size="sm">Consulta dónde está abierta tu cuenta y cierra las sesiones que no reconozcas.</Text>
              <Anchor component={Link} to={paths.profileDevices} size="sm">
                Ver mis dispositivos
              </Anchor>
            </Stack>
          </Card>
          <Card withBorder radius="md" padding="lg">
            <Stack gap="xs">
              <Title order={2} size="h3">
                Educación continua
              </Title>
              <Text size="sm">Tus horas por organismo acreditador y por año, con sus constancias.</Text>
              <Anchor component={Link} to={paths.profileCredits} size="sm">
                Ver mis créditos
              </Anchor>
            </Stack>
          </Card>
        </SimpleGrid>
        {membership.hasPremiumAccess && certificates.length > 0 && (
          <Suspense fallback={null}>
            <CertificatesCard />
          </Suspense>
        )}
      </Stack>
    </Container>
  );
}

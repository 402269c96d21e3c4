import { Alert, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Suspense, useState } from 'react';
import type { Membership } from '#shared/membership/membership.schemas.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { lazyModal } from '#web/components/lazy-modal.tsx';
import { useMembershipChange } from '#web/features/membership/membership.api.ts';
import { longDate, typeLabels } from '../membership-labels.ts';
import { UpgradeChoice } from './lazy-upgrade-choice.ts';

const DowngradeConfirmModal = lazyModal(() =>
  import('./downgrade-confirm-modal.tsx').then((module) => module.DowngradeConfirmModal),
);

/** The membership card of /perfil: type, next payment date, and the changes the member may ask for. */
export function MembershipCard({ membership }: { membership: Membership }) {
  const { showAppError } = useErrorModal();
  const [confirmDowngrade, setConfirmDowngrade] = useState(false);
  const downgrade = useMembershipChange('downgrade');
  const reactivate = useMembershipChange('reactivate');
  const planText = membership.type === 'Premium' ? (membership.annualPlan ? 'Plan anual' : 'Plan mensual') : null;

  const doDowngrade = () =>
    downgrade.mutate(undefined, {
      onSuccess: (result) => {
        setConfirmDowngrade(false);
        const until = result.membership.terminationDate;
        notifications.show({
          color: 'blue',
          title: 'Cambio a membresía Básica',
          message: until
            ? `Conservarás tus beneficios Premium hasta el ${longDate(until)}.`
            : 'Tu membresía ahora es Básica.',
        });
      },
      onError: (error) => {
        setConfirmDowngrade(false);
        showAppError(error);
      },
    });

  const doReactivate = () =>
    reactivate.mutate(undefined, {
      onSuccess: () =>
        notifications.show({
          color: 'green',
          title: 'Premium reactivado',
          message: 'Tu membresía Premium sigue activa.',
        }),
      onError: (error) => showAppError(error),
    });

  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h3">
            Membresía
          </Title>
          <Badge size="lg" color={membership.hasPremiumAccess ? 'blue' : 'gray'} variant="light">
            {typeLabels[membership.type]}
          </Badge>
        </Group>
        {planText && <Text>{planText}</Text>}
        {membership.isManual && <Text size="sm">Premium asignado por un administrador.</Text>}
        {membership.isPrepaid && membership.terminationDate && (
          <Text>
            Premium anual (pago único) hasta el <strong>{longDate(membership.terminationDate)}</strong>; no se renueva.
          </Text>
        )}
        {membership.isManual && membership.terminationDate && (
          <Text>
            Premium hasta: <strong>{longDate(membership.terminationDate)}</strong>
          </Text>
        )}
        {membership.nextPaymentDate && (
          <Text>
            Próxima fecha de pago: <strong>{longDate(membership.nextPaymentDate)}</strong>
          </Text>
        )}
        {membership.type === 'Legacy' && membership.terminationDate && (
          <Text>Tus beneficios Premium terminan el {longDate(membership.terminationDate)}.</Text>
        )}
        {membership.paymentStatus === 'POR_TERMINAR' && membership.terminationDate && (
          <Alert color="yellow" title="Cambio a Básica programado">
            Conservarás tus beneficios Premium hasta el {longDate(membership.terminationDate)}. Puedes reactivar Premium
            antes de esa fecha.
          </Alert>
        )}
        {membership.paymentStatus === 'CANCELLED' && (
          <Text size="sm">Tu suscripción fue cancelada. Puedes volver a suscribirte cuando quieras.</Text>
        )}

        {membership.canDowngrade && (
          <Button variant="default" onClick={() => setConfirmDowngrade(true)}>
            Cambiar a membresía Básica
          </Button>
        )}
        {membership.canReactivate && (
          <Button onClick={doReactivate} loading={reactivate.isPending}>
            Reactivar Premium
          </Button>
        )}
        {membership.canUpgrade && (
          <Suspense fallback={null}>
            <UpgradeChoice />
          </Suspense>
        )}
      </Stack>

      <DowngradeConfirmModal
        opened={confirmDowngrade}
        onClose={() => setConfirmDowngrade(false)}
        onConfirm={doDowngrade}
        isPending={downgrade.isPending}
        nextPaymentDate={membership.nextPaymentDate}
      />
    </Card>
  );
}

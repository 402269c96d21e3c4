import { Alert, Badge, Button, Card, Group, Modal, Radio, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { Membership } from '#shared/membership/membership.schemas.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { useMembershipChange } from '#web/features/membership/membership.api.ts';
import {
  usePaymentsConfig,
  useStartPesosSubscription,
  useStartSubscription,
} from '#web/features/payments/payments.api.ts';
import { formatMxn } from '#shared/payments/payments.rules.ts';
import { longDate, planOptions, typeLabels } from '../membership-labels.ts';

/** The membership card of /perfil: type, next payment date, and the changes the member may ask for. */
export function MembershipCard({ membership }: { membership: Membership }) {
  const { showError, showAppError } = useErrorModal();
  const [confirmDowngrade, setConfirmDowngrade] = useState(false);
  const [plan, setPlan] = useState<'monthly' | 'annual'>('monthly');
  const downgrade = useMembershipChange('downgrade');
  const reactivate = useMembershipChange('reactivate');
  const start = useStartSubscription();
  const startPesos = useStartPesosSubscription();
  const config = usePaymentsConfig();
  const providerName = config.data?.providerName ?? 'PayPal';
  const pesosPlans = config.data?.pesosPlans;
  const pesosOffered = !!pesosPlans && (pesosPlans.monthly !== null || pesosPlans.annual !== null);
  const [method, setMethod] = useState<'usd' | 'mxn'>('usd');
  const paysInPesos = pesosOffered && method === 'mxn';

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

  const chooseMethod = (value: string) => {
    const next = value === 'mxn' ? 'mxn' : 'usd';
    setMethod(next);
    // a plan not sold in pesos cannot stay chosen with the card in pesos
    if (next === 'mxn' && pesosPlans && pesosPlans[plan] === null) setPlan(plan === 'monthly' ? 'annual' : 'monthly');
  };

  const upgradeInPesos = () =>
    startPesos.mutate(
      { plan, returnTo: 'profile' },
      {
        onSuccess: (result) => window.location.assign(result.approvalUrl),
        onError: (error) => showAppError(error),
      },
    );

  const upgrade = () =>
    start.mutate(
      { plan, returnTo: 'profile' },
      {
        onSuccess: (result) => window.location.assign(result.approvalUrl),
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'SUBSCRIPTION_CREATE_FAILED')
            showError({ title: providerName, message: error.message });
          else showAppError(error);
        },
      },
    );

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
          <Stack gap="xs">
            <Radio.Group
              label="Obtén Premium"
              value={plan}
              onChange={(value) => setPlan(value as 'monthly' | 'annual')}
            >
              <Group mt="xs">
                {planOptions
                  .filter((option) => option.value !== 'basic')
                  .map((option) => {
                    const pesos = paysInPesos ? pesosPlans![option.value as 'monthly' | 'annual'] : null;
                    return (
                      <Radio
                        key={option.value}
                        value={option.value}
                        disabled={paysInPesos && pesos === null}
                        label={`${option.title} · ${paysInPesos ? (pesos === null ? 'no disponible en pesos' : formatMxn(pesos)) : option.price}`}
                      />
                    );
                  })}
              </Group>
            </Radio.Group>
            {pesosOffered && (
              <Radio.Group label="Forma de pago" value={method} onChange={chooseMethod}>
                <Stack gap="xs" mt="xs">
                  <Radio value="mxn" label="Tarjeta de crédito o débito (pesos)" />
                  <Radio value="usd" label={`${providerName} (USD)`} />
                </Stack>
              </Radio.Group>
            )}
            {paysInPesos ? (
              <>
                <Button onClick={upgradeInPesos} loading={startPesos.isPending}>
                  Continuar en Mercado Pago
                </Button>
                <Text size="xs" c="dimmed">
                  Autorizas tu tarjeta en el sitio de Mercado Pago; CxVet no ve ni guarda sus datos.
                </Text>
              </>
            ) : (
              <Button onClick={upgrade} loading={start.isPending}>
                Obtener Premium con {providerName}
              </Button>
            )}
          </Stack>
        )}
      </Stack>

      <Modal
        opened={confirmDowngrade}
        onClose={() => setConfirmDowngrade(false)}
        title="Cambiar a membresía Básica"
        centered
      >
        <Text>
          ¿Seguro que quieres cambiar a la membresía Básica? No se harán más cobros y conservarás tus beneficios Premium
          hasta tu próxima fecha de pago{membership.nextPaymentDate ? ` (${longDate(membership.nextPaymentDate)})` : ''}
          .
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setConfirmDowngrade(false)}>
            Cancelar
          </Button>
          <Button color="red" onClick={doDowngrade} loading={downgrade.isPending}>
            Cambiar a Básica
          </Button>
        </Group>
      </Modal>
    </Card>
  );
}

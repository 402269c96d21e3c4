import { Alert, Button, Container, Loader, Paper, Radio, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { useCurrentUser } from '#web/features/accounts/current-user.api.ts';
import { useFinishBasicSignUp } from '#web/features/accounts/accounts.api.ts';
import {
  useConfirmPesosSubscription,
  useConfirmSubscription,
  usePaymentsConfig,
  useStartSubscription,
} from '#web/features/payments/payments.api.ts';
import { SignUpPaymentChoice } from '#web/features/accounts/components/signup-payment-choice.tsx';
import { planOptions } from '#web/features/accounts/membership-labels.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { paths } from '#web/paths.ts';

type Choice = 'basic' | 'monthly' | 'annual';

function initialChoice(params: URLSearchParams): Choice {
  const plan = params.get('plan') ?? params.get('paymentType');
  if (plan === 'basic' || plan === 'monthly' || plan === 'annual') return plan;
  if (params.get('type') === 'Premium') return params.get('planAnual') === 'true' ? 'annual' : 'monthly';
  return 'basic';
}

/** /registro-finalizar: Basic finishes with FINALIZAR; Premium pays at the provider and comes back here. */
export function SignUpFinishPage() {
  const { user, isPending } = useCurrentUser();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { showError, showAppError } = useErrorModal();
  const [choice, setChoice] = useState<Choice>(() => initialChoice(params));
  const [outcome, setOutcome] = useState<'pending' | 'failed' | null>(null);
  const config = usePaymentsConfig();
  const finish = useFinishBasicSignUp();
  const start = useStartSubscription();
  const confirm = useConfirmSubscription();
  const confirmPesos = useConfirmPesosSubscription();
  const returned = params.get('subscription_id');
  // back from Mercado Pago's card page: the server reads the member's newest subscription in pesos back
  const fromMercadoPago = params.get('pago') === 'mercadopago';
  const cancelled = params.get('pago') === 'cancelado';
  const confirmedOnce = useRef(false);

  useEffect(() => {
    if ((!returned && !fromMercadoPago) || !user || confirmedOnce.current) return;
    confirmedOnce.current = true;
    const options = {
      onSuccess: (result: { isPremium: boolean; state: string }) => {
        if (result.isPremium) void navigate(paths.signUp);
        else setOutcome(result.state === 'PENDIENTE' ? 'pending' : 'failed');
      },
      onError: (error: unknown) => showAppError(error),
    };
    if (returned) confirm.mutate(returned, options);
    else confirmPesos.mutate(undefined, options);
  }, [returned, fromMercadoPago, user, confirm, confirmPesos, navigate, showAppError]);

  if (isPending) return <Loader m="xl" />;
  if ((!user && !params.get('uid')) || user?.type === 'Premium') return <Navigate to={paths.signUp} replace />;
  if (!user) return <Navigate to={paths.login} replace />;

  const providerName = fromMercadoPago ? 'Mercado Pago' : (config.data?.providerName ?? 'PayPal');
  const pesosPlans = config.data?.pesosPlans ?? { monthly: null, annual: null };
  const takesPesos = pesosPlans.monthly !== null || pesosPlans.annual !== null;
  const pay = () =>
    start.mutate(
      { plan: choice as 'monthly' | 'annual', returnTo: 'signup' },
      {
        onSuccess: (result) => window.location.assign(result.approvalUrl),
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'SUBSCRIPTION_CREATE_FAILED')
            showError({ title: providerName, message: error.message });
          else showAppError(error);
        },
      },
    );
  const finishBasic = () =>
    finish.mutate(undefined, {
      onSuccess: () => void navigate(paths.signUp),
      onError: (error) => showAppError(error),
    });

  return (
    <Container size={560} py="xl">
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="md">
          <Title order={1}>Finaliza tu registro</Title>
          <Text>Hola {user.name}, elige tu membresía para terminar.</Text>
          {(confirm.isPending || confirmPesos.isPending) && (
            <Alert color="blue" title="Verificando tu pago">
              Estamos confirmando tu pago con {providerName}…
            </Alert>
          )}
          {outcome === 'pending' && (
            <Alert color="yellow" title="Pago pendiente">
              {providerName} aún no confirma tu pago. Si ya lo aprobaste, tu membresía Premium se activará en unos
              minutos.
            </Alert>
          )}
          {outcome === 'failed' && (
            <Alert color="red" title="Pago no realizado">
              No se pudo realizar el pago de tu suscripción. Puedes intentarlo de nuevo.
            </Alert>
          )}
          {cancelled && (
            <Alert color="yellow" title="Pago cancelado">
              Cancelaste el pago. Puedes elegir otra membresía o intentarlo de nuevo.
            </Alert>
          )}
          <Radio.Group label="Membresía" value={choice} onChange={(value) => setChoice(value as Choice)}>
            <Stack gap="xs" mt="xs">
              {planOptions.map((option) => (
                <Radio key={option.value} value={option.value} label={`${option.title} · ${option.price}`} />
              ))}
            </Stack>
          </Radio.Group>
          {choice === 'basic' ? (
            <Button onClick={finishBasic} loading={finish.isPending}>
              FINALIZAR
            </Button>
          ) : takesPesos ? (
            <SignUpPaymentChoice plan={choice} />
          ) : (
            <Stack gap="xs">
              <Text size="sm">
                Serás dirigido a {providerName} para aprobar la suscripción; tu membresía Premium se activa cuando
                confirme el pago.
              </Text>
              <Button onClick={pay} loading={start.isPending}>
                Pagar con {providerName}
              </Button>
            </Stack>
          )}
        </Stack>
      </Paper>
    </Container>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Checkbox,
  Group,
  Modal,
  PasswordInput,
  SimpleGrid,
  Stack,
  Stepper,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Controller, useForm, useWatch, type FieldPath } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { signUpSchema, type SignUpInput, type SignUpPlan } from '#shared/accounts/signup.schemas.ts';
import { messages } from '#shared/messages.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { paths } from '#web/paths.ts';
import { isEmailAvailable, useSignUp } from '#web/features/accounts/accounts.api.ts';
import { usePaymentsConfig } from '#web/features/payments/payments.api.ts';
import { planOptions } from '../membership-labels.ts';
import { PhoneField } from './phone-field.tsx';
import { ProfileFields } from './profile-fields.tsx';
import classes from './signup-wizard.module.css';

const emptyForm: SignUpInput = {
  plan: 'basic',
  name: '',
  email: '',
  confirmEmail: '',
  phoneNumber: '',
  confirmPhoneNumber: '',
  password: '',
  confirmPassword: '',
  country: '',
  city: '',
  homeUniversity: '',
  organizationId: null,
  promoMail: false,
  newsMail: false,
  terms: false,
};

const stepTwoFields: FieldPath<SignUpInput>[] = [
  'name',
  'email',
  'confirmEmail',
  'phoneNumber',
  'confirmPhoneNumber',
  'password',
  'confirmPassword',
  'country',
  'city',
  'homeUniversity',
  'terms',
];

const signUpFailedSavingProfile = 'No se pudo crear usuario, contáctanos para resolver este problema';

/** Spec 1 §2 sign-up: 1 membership, 2 personal information, 3 payment method, then 'Registrar Cuenta'. */
export function SignUpWizard() {
  const [step, setStep] = useState(0);
  const [confirming, setConfirming] = useState(false);
  const [takenEmail, setTakenEmail] = useState<string | null>(null);
  const navigate = useNavigate();
  const { showError } = useErrorModal();
  const signUp = useSignUp();
  const config = usePaymentsConfig();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const form = useForm<SignUpInput>({
    resolver: zodResolver(signUpSchema) as never,
    mode: 'onChange',
    defaultValues: emptyForm,
  });
  const {
    register,
    control,
    formState: { errors },
    setValue,
    trigger,
    setError,
    getValues,
  } = form;
  const plan = useWatch({ control, name: 'plan' });
  const email = useWatch({ control, name: 'email' });
  const emailTaken = takenEmail !== null && takenEmail === email.trim().toLowerCase();

  // live uniqueness check of the e-mail, after the pattern is right
  useEffect(() => {
    const trimmed = email.trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed)) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      isEmailAvailable(trimmed, controller.signal)
        .then((available) => setTakenEmail(available ? null : trimmed))
        .catch(() => {});
    }, 400);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [email]);

  useEffect(() => {
    headingRef.current?.focus();
  }, [step]);

  const choosePlan = (value: SignUpPlan) => {
    setValue('plan', value);
    setStep(1);
  };

  const goToPayment = async () => {
    const valid = await trigger(stepTwoFields, { shouldFocus: true });
    if (!valid) return;
    try {
      const address = getValues('email').trim().toLowerCase();
      if (!(await isEmailAvailable(address))) {
        setTakenEmail(address);
        return;
      }
    } catch {
      showError({ message: 'Ocurrió un error, por favor recarga la página' });
      return;
    }
    setStep(2);
  };

  const register_ = () =>
    signUp.mutate(getValues(), {
      onSuccess: (result) => {
        setConfirming(false);
        const params = new URLSearchParams({
          uid: result.uid,
          planAnual: String(result.planAnual),
          email: result.email,
          userName: result.userName,
          paymentType: result.paymentType,
          type: result.type,
        });
        void navigate(`${paths.signUpFinish}?${params.toString()}`);
      },
      onError: (error) => {
        setConfirming(false);
        if (error instanceof ApiError && error.code === 'EMAIL_TAKEN') {
          setTakenEmail(getValues('email').trim().toLowerCase());
          setStep(1);
          return;
        }
        if (error instanceof ApiError && error.code === 'VALIDATION' && error.fields) {
          for (const [field, message] of Object.entries(error.fields))
            setError(field as FieldPath<SignUpInput>, { message });
          setStep(1);
          return;
        }
        if (
          error instanceof ApiError &&
          (error.code === 'SIGNUP_USER_EXISTS' || error.code === 'SIGNUP_FAILED' || error.code === 'RATE_LIMITED')
        ) {
          showError({ message: error.message });
          return;
        }
        showError({ message: signUpFailedSavingProfile });
      },
    });

  const chosen = planOptions.find((option) => option.value === plan)!;
  const emailError = errors.email?.message ?? (emailTaken ? messages.emailTaken : undefined);

  return (
    <Stack gap="lg">
      <Title order={1} ref={headingRef} tabIndex={-1} className={classes.heading}>
        Registro
      </Title>
      <Stepper
        active={step}
        onStepClick={(index) => index < step && setStep(index)}
        size="sm"
        allowNextStepsSelect={false}
      >
        <Stepper.Step label="Membresía" description="Elige tu plan">
          <Stack gap="md" mt="md">
            <Title order={2} size="h3">
              Elige tu membresía
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              {planOptions.map((option) => (
                <UnstyledButton
                  key={option.value}
                  className={classes.plan}
                  data-selected={plan === option.value || undefined}
                  onClick={() => choosePlan(option.value)}
                  aria-label={`${option.title} ${option.price}`}
                >
                  <Card withBorder radius="md" padding="lg" h="100%">
                    <Text fw={700} size="lg">
                      {option.title}
                    </Text>
                    <Text fw={700} size="xl" c="blue.8" my="xs">
                      {option.price}
                    </Text>
                    <Text size="sm">{option.detail}</Text>
                  </Card>
                </UnstyledButton>
              ))}
            </SimpleGrid>
          </Stack>
        </Stepper.Step>

        <Stepper.Step label="Información personal" description="Tus datos">
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void goToPayment();
            }}
          >
            <Stack gap="sm" mt="md">
              <Title order={2} size="h3">
                Información personal
              </Title>
              <Text size="sm">
                Membresía elegida: <strong>{chosen.title}</strong> ({chosen.price})
              </Text>
              <TextInput
                label="Nombre completo"
                withAsterisk
                autoComplete="name"
                error={errors.name?.message}
                {...register('name')}
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label="Correo electrónico"
                  type="email"
                  withAsterisk
                  autoComplete="email"
                  error={emailError}
                  {...register('email', { deps: ['confirmEmail'] })}
                />
                <TextInput
                  label="Confirma tu correo electrónico"
                  type="email"
                  withAsterisk
                  autoComplete="off"
                  error={errors.confirmEmail?.message}
                  {...register('confirmEmail')}
                />
              </SimpleGrid>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Controller
                  control={control}
                  name="phoneNumber"
                  render={({ field, fieldState }) => (
                    <PhoneField
                      label="Teléfono"
                      required
                      value={field.value}
                      onChange={(value) => {
                        field.onChange(value);
                        if (getValues('confirmPhoneNumber')) void trigger('confirmPhoneNumber');
                      }}
                      onBlur={field.onBlur}
                      error={fieldState.error?.message}
                    />
                  )}
                />
                <Controller
                  control={control}
                  name="confirmPhoneNumber"
                  render={({ field, fieldState }) => (
                    <PhoneField
                      label="Confirma tu teléfono"
                      required
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      error={fieldState.error?.message}
                    />
                  )}
                />
              </SimpleGrid>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <PasswordInput
                  label="Contraseña"
                  withAsterisk
                  autoComplete="new-password"
                  error={errors.password?.message}
                  {...register('password', { deps: ['confirmPassword'] })}
                />
                <PasswordInput
                  label="Confirma tu contraseña"
                  withAsterisk
                  autoComplete="new-password"
                  error={errors.confirmPassword?.message}
                  {...register('confirmPassword')}
                />
              </SimpleGrid>
              <ProfileFields control={control} register={register} setValue={setValue} errors={errors} />
              <Checkbox
                label={
                  <>
                    He leído y acepto los{' '}
                    <Anchor href={paths.terms} target="_blank" rel="noopener" inherit>
                      términos y condiciones
                    </Anchor>
                  </>
                }
                error={errors.terms?.message}
                {...register('terms')}
              />
              <Group justify="space-between" mt="md">
                <Button variant="default" onClick={() => setStep(0)}>
                  Regresar
                </Button>
                <Button type="submit">Siguiente</Button>
              </Group>
            </Stack>
          </form>
        </Stepper.Step>

        <Stepper.Step label="Método de pago" description="Confirma tu registro">
          <Stack gap="md" mt="md">
            <Title order={2} size="h3">
              Método de pago
            </Title>
            <Card withBorder radius="md" padding="lg">
              <Text fw={700}>{chosen.title}</Text>
              <Text>{chosen.price}</Text>
              <Text size="sm" mt="xs">
                {plan === 'basic'
                  ? 'La membresía Básica no tiene costo: no necesitas un método de pago.'
                  : `Pagarás con ${config.data?.providerName ?? 'el proveedor de pagos'} después de crear tu cuenta, en el siguiente paso.`}
              </Text>
            </Card>
            {plan !== 'basic' && (
              <Alert color="blue" variant="light">
                Tu membresía Premium se activa en cuanto el proveedor de pagos confirme el cobro.
              </Alert>
            )}
            <Group justify="space-between">
              <Button variant="default" onClick={() => setStep(1)}>
                Regresar
              </Button>
              <Button onClick={() => setConfirming(true)}>Registrar Cuenta</Button>
            </Group>
          </Stack>
        </Stepper.Step>
      </Stepper>

      <Modal
        opened={confirming}
        onClose={() => !signUp.isPending && setConfirming(false)}
        title="Registrar Cuenta"
        centered
      >
        <Text>
          El registro de tu cuenta puede tardar unos momentos. Por favor no cierres el navegador hasta que termine.
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setConfirming(false)} disabled={signUp.isPending}>
            Cerrar
          </Button>
          <Button onClick={register_} loading={signUp.isPending}>
            Registrar
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}

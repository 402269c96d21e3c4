import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { CurrentUser } from '#shared/accounts/accounts.schemas.ts';
import { loginSchema, type LoginInput } from '#shared/accounts/accounts.schemas.ts';
import type { ErrorCode } from '#shared/errors.ts';
import { loginFallback } from '#shared/error-messages.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { paths } from '#web/paths.ts';
import { useLogin } from '#web/features/accounts/accounts.api.ts';

/** Login failures whose Spanish message the server already sends. */
const namedLoginErrors: ReadonlySet<ErrorCode> = new Set([
  'LOGIN_USER_NOT_FOUND',
  'LOGIN_WRONG_PASSWORD',
  'LOGIN_USER_DISABLED',
  'LOGIN_INVALID_EMAIL',
  'RATE_LIMITED',
]);

type Props = {
  /** Shown above the fields, e.g. why a re-login is needed. */
  message?: string;
  /** The tab title while this form is the page (a re-login step names the page it guards). */
  pageTitle?: string;
  onSuccess?: (user: CurrentUser | null) => void;
};

export function LoginForm({ message, pageTitle, onSuccess }: Props) {
  const login = useLogin();
  const { showError } = useErrorModal();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginInput>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = handleSubmit((input) =>
    login.mutate(input, {
      onSuccess: (user) => onSuccess?.(user),
      onError: (error) => {
        if (error instanceof ApiError && namedLoginErrors.has(error.code)) {
          showError({ title: error.title ?? loginFallback.title, message: error.message });
        } else {
          showError(loginFallback);
        }
      },
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="login-title">
      <Stack gap="md">
        <Title id="login-title" order={1} size="h2" data-page-title={pageTitle}>
          Iniciar sesión
        </Title>
        {message && <Alert color="blue">{message}</Alert>}
        <TextInput
          label="Correo electrónico"
          type="email"
          autoComplete="email"
          withAsterisk
          error={errors.email?.message}
          {...register('email')}
        />
        <PasswordInput
          label="Contraseña"
          autoComplete="current-password"
          withAsterisk
          error={errors.password?.message}
          {...register('password')}
        />
        <Anchor component={Link} to={paths.passwordRecovery} size="sm">
          ¿Olvidaste tu contraseña?
        </Anchor>
        <Button type="submit" loading={login.isPending} fullWidth>
          Iniciar sesión
        </Button>
        <Group justify="center" gap={6}>
          <span>¿Aún no tienes cuenta?</span>
          <Anchor component={Link} to={paths.signUp}>
            Regístrate
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Anchor,
  Button,
  Container,
  Group,
  Loader,
  Modal,
  Paper,
  PasswordInput,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { passwordResetConfirmSchema } from '#shared/accounts/password.schemas.ts';
import { errorMessages } from '#shared/error-messages.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { usePasswordReset, useResetCodeCheck } from '#web/features/accounts/accounts.api.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { paths } from '#web/paths.ts';

type ResetForm = { code: string; password: string; confirmPassword: string };

const invalidCode = {
  title: errorMessages.RESET_CODE_INVALID.title,
  message: errorMessages.RESET_CODE_INVALID.message,
};

/** /reasignar_password?mode&oobCode&apiKey: the code is checked on load, then a new password is set. */
export function PasswordResetPage() {
  const [params] = useSearchParams();
  const code = params.get('oobCode') ?? '';
  const navigate = useNavigate();
  const { showError } = useErrorModal();
  const [done, setDone] = useState(false);
  const check = useResetCodeCheck(code);
  const reset = usePasswordReset();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ResetForm>({
    resolver: zodResolver(passwordResetConfirmSchema),
    mode: 'onChange',
    defaultValues: { code, password: '', confirmPassword: '' },
  });
  const codeInvalid = code === '' || check.data === false;

  useEffect(() => {
    if (code === '' || check.data === false) showError(invalidCode);
    else if (check.isError) showError({ title: 'ERROR', message: 'Ocurrió un error' });
  }, [code, check.data, check.isError, showError]);

  const onSubmit = handleSubmit((input) =>
    reset.mutate(input, {
      onSuccess: () => setDone(true),
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'RESET_CODE_INVALID') showError(invalidCode);
        else if (error instanceof ApiError && error.code === 'RATE_LIMITED') showError({ message: error.message });
        else showError({ title: 'ERROR', message: 'Ocurrió un error' });
      },
    }),
  );

  return (
    <Container size={460} py={{ base: 'lg', sm: 56 }}>
      <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="md">
        <form onSubmit={onSubmit} noValidate aria-labelledby="reset-title">
          <Stack gap="md">
            <Title id="reset-title" order={1} size="h2">
              Asignar nueva contraseña
            </Title>
            {check.isPending && code !== '' && <Loader size="sm" aria-label="Verificando el enlace" />}
            {codeInvalid && (
              <Alert color="red" title={invalidCode.title}>
                {invalidCode.message}.{' '}
                <Anchor component={Link} to={paths.passwordRecovery}>
                  Solicita un nuevo enlace
                </Anchor>
              </Alert>
            )}
            <PasswordInput
              label="Nueva contraseña"
              autoComplete="new-password"
              withAsterisk
              error={errors.password?.message}
              disabled={codeInvalid}
              {...register('password', { deps: ['confirmPassword'] })}
            />
            <PasswordInput
              label="Confirma la nueva contraseña"
              autoComplete="new-password"
              withAsterisk
              error={errors.confirmPassword?.message}
              disabled={codeInvalid}
              {...register('confirmPassword')}
            />
            <Button type="submit" loading={reset.isPending} disabled={codeInvalid || check.isPending} fullWidth>
              Guardar contraseña
            </Button>
          </Stack>
        </form>
      </Paper>
      <Modal opened={done} onClose={() => void navigate(paths.login)} title="Contraseña modificada" centered>
        <Text>Tu contraseña se cambió correctamente. Ya puedes iniciar sesión con ella.</Text>
        <Group justify="flex-end" mt="lg">
          <Button onClick={() => void navigate(paths.login)}>Aceptar</Button>
        </Group>
      </Modal>
    </Container>
  );
}

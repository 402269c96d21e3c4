import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Container, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { passwordResetRequestSchema } from '#shared/accounts/password.schemas.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { usePasswordRecovery } from '#web/features/accounts/accounts.api.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { paths } from '#web/paths.ts';
import { errorMessages } from '#shared/error-messages.ts';

/** Spec 1 §8 recovery messages (this screen says 'Usuario no encontrado' without a period). */
const recoveryErrors: Partial<Record<string, string>> = {
  LOGIN_INVALID_EMAIL: errorMessages.LOGIN_INVALID_EMAIL.message,
  LOGIN_USER_NOT_FOUND: 'Usuario no encontrado',
};

/** /login/recuperar_password */
export function PasswordRecoveryPage() {
  const [sent, setSent] = useState(false);
  const navigate = useNavigate();
  const { showError } = useErrorModal();
  const recovery = usePasswordRecovery();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ email: string }>({
    resolver: zodResolver(passwordResetRequestSchema),
    defaultValues: { email: '' },
  });

  const onSubmit = handleSubmit(({ email }) =>
    recovery.mutate(email, {
      onSuccess: () => setSent(true),
      onError: (error) => {
        const named = error instanceof ApiError ? recoveryErrors[error.code] : undefined;
        if (named) showError({ message: named });
        else if (error instanceof ApiError && error.code === 'RATE_LIMITED') showError({ message: error.message });
        else showError({ title: 'ERROR RECUPERAR CONTRASEÑA', message: errorMessages.INTERNAL.message });
      },
    }),
  );

  return (
    <Container size={460} py={{ base: 'lg', sm: 56 }}>
      <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="md">
        <form onSubmit={onSubmit} noValidate aria-labelledby="recovery-title">
          <Stack gap="md">
            <Title id="recovery-title" order={1} size="h2">
              Recuperar contraseña
            </Title>
            <Text size="sm">
              Escribe el correo de tu cuenta y te enviaremos un enlace para asignar una nueva contraseña.
            </Text>
            <TextInput
              label="Correo electrónico"
              type="email"
              autoComplete="email"
              withAsterisk
              error={errors.email?.message}
              {...register('email')}
            />
            <Button type="submit" loading={recovery.isPending} fullWidth>
              Enviar
            </Button>
            <Anchor component={Link} to={paths.login} size="sm" ta="center">
              Volver a iniciar sesión
            </Anchor>
          </Stack>
        </form>
      </Paper>
      <Modal opened={sent} onClose={() => void navigate(paths.login)} title="Solicitud enviada" centered>
        <Text>Recibirás un correo electrónico para que puedas asignar una nueva contraseña</Text>
        <Group justify="flex-end" mt="lg">
          <Button onClick={() => void navigate(paths.login)}>Aceptar</Button>
        </Group>
      </Modal>
    </Container>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { deleteAccountSchema, type DeleteAccountInput } from '#shared/privacy/privacy.schemas.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { errorMessages } from '#shared/error-messages.ts';
import { useDeleteAccount } from '#web/features/privacy/privacy.api.ts';
import { CertificateChoiceField, DeletionFormActions } from './deletion-form-parts.tsx';

/** 'Eliminar mi cuenta': the current password and what becomes of the certificates. */
export function DeleteAccountModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const remove = useDeleteAccount();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<DeleteAccountInput>({
    resolver: zodResolver(deleteAccountSchema),
    defaultValues: { password: '', certificates: 'keep' },
  });
  const { errors } = form.formState;

  const close = () => {
    if (remove.isPending) return;
    setFailure(null);
    form.reset();
    onClose();
  };

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await remove.mutateAsync(values);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'LOGIN_WRONG_PASSWORD') {
        form.setError('password', {
          type: 'server',
          message: error.fields?.password ?? 'La contraseña no es correcta.',
        });
      } else {
        setFailure(error instanceof ApiError ? error.message : errorMessages.INTERNAL.message);
      }
    }
  });

  return (
    <Modal opened={opened} onClose={close} title="Eliminar mi cuenta" centered>
      <form onSubmit={onSubmit} noValidate aria-label="Eliminar mi cuenta">
        <Stack>
          <Text size="sm">
            Esta acción no se puede deshacer. Si tienes una suscripción activa, la cancelaremos primero; después
            borraremos tus datos personales y cerraremos tu sesión en todos tus dispositivos.
          </Text>
          <PasswordInput
            label="Contraseña actual"
            autoComplete="current-password"
            required
            data-autofocus
            error={errors.password?.message}
            {...form.register('password')}
          />
          <Controller
            control={form.control}
            name="certificates"
            render={({ field }) => (
              <CertificateChoiceField
                label="Tus constancias"
                keepLabel="Conservarlas verificables, sin mi nombre"
                revokeLabel="Revocarlas: su página de verificación dirá que ya no son válidas"
                value={field.value}
                onChange={field.onChange}
              />
            )}
          />
          <DeletionFormActions
            failureTitle="No se eliminó la cuenta"
            failure={failure}
            pending={remove.isPending}
            onCancel={close}
            submitLabel="Eliminar definitivamente"
          />
        </Stack>
      </form>
    </Modal>
  );
}

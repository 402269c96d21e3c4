import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { adminDeleteAccountSchema, type AdminDeleteAccountInput } from '#shared/privacy/privacy.schemas.ts';
import { errorMessages } from '#shared/error-messages.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useAdminDeleteData } from '#web/features/privacy/privacy.api.ts';
import { CertificateChoiceField, DeletionFormActions } from './deletion-form-parts.tsx';

type FormValues = z.input<typeof adminDeleteAccountSchema>;

/** The console's deletion on a member's request: anonymises like the member's own, with the reason kept in the audit. */
export function AdminDeleteDataModal(props: {
  userId: string | undefined;
  opened: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const remove = useAdminDeleteData(props.userId);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<FormValues, unknown, AdminDeleteAccountInput>({
    resolver: zodResolver(adminDeleteAccountSchema),
    defaultValues: { reason: '', certificates: 'keep' },
  });
  const { errors } = form.formState;

  const close = () => {
    if (remove.isPending) return;
    setFailure(null);
    form.reset();
    props.onClose();
  };

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await remove.mutateAsync(values);
      props.onDone();
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : errorMessages.INTERNAL.message);
    }
  });

  return (
    <Modal opened={props.opened} onClose={close} title="Borrar datos a solicitud del titular" centered>
      <form onSubmit={onSubmit} noValidate aria-label="Borrar datos a solicitud del titular">
        <Stack>
          <Text size="sm">
            Cancela su suscripción activa, borra sus datos personales, cierra todas sus sesiones y le envía un correo de
            confirmación. Sus pagos quedan sin identidad. Queda registrado quién lo hizo, cuándo y por qué.
          </Text>
          <Textarea
            label="Motivo de la solicitud"
            required
            autosize
            minRows={2}
            error={errors.reason?.message}
            {...form.register('reason')}
          />
          <Controller
            control={form.control}
            name="certificates"
            render={({ field }) => (
              <CertificateChoiceField
                label="Constancias"
                keepLabel="Conservarlas verificables, sin nombre"
                revokeLabel="Revocarlas"
                value={field.value}
                onChange={field.onChange}
              />
            )}
          />
          <DeletionFormActions
            failureTitle="No se borraron los datos"
            failure={failure}
            pending={remove.isPending}
            onCancel={close}
            submitLabel="Borrar datos"
          />
        </Stack>
      </form>
    </Modal>
  );
}

import { Button, Group } from '@mantine/core';
import { useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { applyServerFieldErrors, useGoBack } from '#web/components/console/form-errors.ts';
import { notify } from '#web/components/console/notify.ts';
import type { PendingUploads } from '#web/components/console/pending-uploads.ts';
import { ConfirmDeleteModal } from './confirm-delete-modal.tsx';

type Save<T> = { mutateAsync: (values: T) => Promise<unknown>; isPending: boolean };
type Remove = { mutateAsync: () => Promise<unknown>; isPending: boolean };

/** The console's save / delete / cancel flow, shared by every record form. */
export function useRecordForm<TInput extends FieldValues, TOutput>(options: {
  form: UseFormReturn<TInput, unknown, TOutput>;
  save: Save<TOutput>;
  remove?: Remove;
  listPath: string;
  pending?: PendingUploads;
}) {
  const { form, save, remove, listPath, pending } = options;
  const navigate = useNavigate();
  const goBack = useGoBack(listPath);
  const [confirming, setConfirming] = useState(false);

  const onSubmit = form.handleSubmit(
    async (values) => {
      try {
        await save.mutateAsync(values);
        pending?.commit();
        notify.saved();
        await navigate(listPath);
      } catch (error) {
        if (applyServerFieldErrors(error, form.setError)) notify.invalid();
        else notify.failed(error);
      }
    },
    () => notify.invalid(),
  );

  async function onDelete() {
    if (!remove) return;
    try {
      await remove.mutateAsync();
      setConfirming(false);
      notify.deleted();
      await navigate(listPath);
    } catch (error) {
      setConfirming(false);
      notify.failed(error);
    }
  }

  return {
    onSubmit,
    onDelete,
    goBack,
    confirming,
    setConfirming,
    saving: save.isPending,
    deleting: remove?.isPending ?? false,
  };
}

/** Eliminar (when editing), Cancelar and Guardar, with the spec's delete confirmation. */
export function RecordFormButtons({
  actions,
  canDelete,
}: {
  actions: ReturnType<typeof useRecordForm>;
  canDelete: boolean;
}) {
  return (
    <>
      <Group justify="flex-end" gap="sm">
        {canDelete ? (
          <Button color="red" variant="outline" onClick={() => actions.setConfirming(true)}>
            Eliminar
          </Button>
        ) : null}
        <Button variant="default" onClick={actions.goBack}>
          Cancelar
        </Button>
        <Button type="submit" loading={actions.saving}>
          Guardar
        </Button>
      </Group>
      <ConfirmDeleteModal
        opened={actions.confirming}
        onCancel={() => actions.setConfirming(false)}
        onConfirm={actions.onDelete}
        loading={actions.deleting}
      />
    </>
  );
}

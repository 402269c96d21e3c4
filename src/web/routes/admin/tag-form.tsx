import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Paper, Stack, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { tagInputSchema, type TagInput } from '#shared/admin-content/admin-content.schemas.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { PageLoader } from '#web/components/page-loader.tsx';
import { useAdminTag, useDeleteTag, useSaveTag } from '#web/features/admin/api.ts';
import { AdminPage } from '#web/features/admin/components/admin-page.tsx';
import { ConfirmDeleteModal } from '#web/features/admin/components/confirm-delete-modal.tsx';
import { applyServerFieldErrors, newRecordId, useGoBack } from '#web/features/admin/form-errors.ts';
import { paths } from '#web/paths.ts';

export function AdminTagFormPage() {
  const params = useParams();
  // a new form for every record, so a new record never keeps the previous one's id
  return <AdminTagForm key={params.id ?? 'new'} recordId={params.id} />;
}

function AdminTagForm({ recordId }: { recordId?: string }) {
  const isEdit = Boolean(recordId);
  const [id] = useState(() => recordId ?? newRecordId());
  const navigate = useNavigate();
  const goBack = useGoBack(paths.adminTags);
  const { showAppError } = useErrorModal();
  const [confirming, setConfirming] = useState(false);
  const tag = useAdminTag(id, isEdit);
  const save = useSaveTag(id);
  const remove = useDeleteTag(id);
  const form = useForm<TagInput>({ resolver: zodResolver(tagInputSchema), defaultValues: { name: '' } });

  useEffect(() => {
    if (tag.data) form.reset({ name: tag.data.name });
  }, [tag.data, form]);

  if (isEdit && tag.isPending) return <PageLoader />;
  if (isEdit && tag.isError) throw tag.error;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      await navigate(paths.adminTags);
    } catch (error) {
      if (!applyServerFieldErrors(error, form.setError)) showAppError(error);
    }
  });

  async function onDelete() {
    try {
      await remove.mutateAsync();
      setConfirming(false);
      await navigate(paths.adminTags);
    } catch (error) {
      setConfirming(false);
      showAppError(error);
    }
  }

  return (
    <AdminPage title={isEdit ? 'Editar etiqueta' : 'Nueva etiqueta'}>
      <Paper withBorder p="md" maw={640}>
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <TextInput label="Nombre" required {...form.register('name')} error={form.formState.errors.name?.message} />
            <Group justify="flex-end" gap="sm">
              {isEdit ? (
                <Button color="red" variant="outline" onClick={() => setConfirming(true)}>
                  Eliminar
                </Button>
              ) : null}
              <Button variant="default" onClick={goBack}>
                Cancelar
              </Button>
              <Button type="submit" loading={save.isPending}>
                Guardar
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <ConfirmDeleteModal opened={confirming} onCancel={() => setConfirming(false)} onConfirm={onDelete} loading={remove.isPending} />
    </AdminPage>
  );
}

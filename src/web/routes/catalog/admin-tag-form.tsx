import { zodResolver } from '@hookform/resolvers/zod';
import { Paper, Stack, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useParams } from 'react-router';
import { tagInputSchema, type TagInput } from '#shared/catalog/tags.admin.schemas.ts';
import { PageLoader } from '#web/components/page-loader.tsx';
import { useAdminTag, useDeleteTag, useSaveTag } from '#web/features/catalog/catalog.admin.api.ts';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { newRecordId } from '#web/components/console/form-errors.ts';
import { RecordFormButtons, useRecordForm } from '#web/components/console/record-form.tsx';
import { paths } from '#web/paths.ts';

export function AdminTagFormPage() {
  const params = useParams();
  // a new form for every record, so a new record never keeps the previous one's id
  return <AdminTagForm key={params.id ?? 'new'} recordId={params.id} />;
}

function AdminTagForm({ recordId }: { recordId?: string }) {
  const isEdit = Boolean(recordId);
  const [id] = useState(() => recordId ?? newRecordId());
  const tag = useAdminTag(id, isEdit);
  const save = useSaveTag(id);
  const remove = useDeleteTag(id);
  const form = useForm<TagInput>({ resolver: zodResolver(tagInputSchema), defaultValues: { name: '' } });
  const actions = useRecordForm({ form, save, remove, listPath: paths.adminTags });

  useEffect(() => {
    if (tag.data) form.reset({ name: tag.data.name });
  }, [tag.data, form]);

  if (isEdit && tag.isPending) return <PageLoader />;
  if (isEdit && tag.isError) throw tag.error;

  return (
    <AdminPage title={isEdit ? 'Editar etiqueta' : 'Nueva etiqueta'}>
      <Paper withBorder p="md" maw={640}>
        <form onSubmit={actions.onSubmit} noValidate>
          <Stack>
            <TextInput label="Nombre" required {...form.register('name')} error={form.formState.errors.name?.message} />
            <RecordFormButtons actions={actions} canDelete={isEdit} />
          </Stack>
        </form>
      </Paper>
    </AdminPage>
  );
}

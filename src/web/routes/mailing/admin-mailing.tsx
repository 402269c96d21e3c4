import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Loader, Paper, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { bulkMailSchema, bulkMailTexts } from '#shared/mailing/mailing.schemas.ts';
import { useSendBulkMail } from '#web/features/mailing/mailing.api.ts';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { applyServerFieldErrors } from '#web/components/console/form-errors.ts';
import { FormUploadField } from '#web/components/console/upload-field.tsx';
import { usePendingUploads } from '#web/components/console/pending-uploads.ts';

type FormValues = z.input<typeof bulkMailSchema>;
type SubmitValues = z.output<typeof bulkMailSchema>;

const emptyMail: FormValues = { subject: '', title: '', message: '', image: null };

const recipientsText = (count: number) => (count === 1 ? '1 destinatario' : `${count} destinatarios`);

export function AdminMailingPage() {
  const send = useSendBulkMail();
  const pending = usePendingUploads();
  const [sent, setSent] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);
  const form = useForm<FormValues, unknown, SubmitValues>({
    resolver: zodResolver(bulkMailSchema),
    defaultValues: emptyMail,
  });
  const { errors } = form.formState;

  // spec 2 §4: any edit clears the sent notice
  useEffect(() => {
    return form.subscribe({
      formState: { values: true },
      callback: () => {
        setSent(null);
        setFailed(false);
      },
    });
  }, [form]);

  const onSubmit = form.handleSubmit(async (values) => {
    setSent(null);
    setFailed(false);
    try {
      const result = await send.mutateAsync({
        subject: values.subject,
        title: values.title,
        message: values.message,
        image: values.image,
      });
      pending.commit();
      form.reset(emptyMail);
      setFailed(false);
      setSent(result.recipients);
    } catch (error) {
      applyServerFieldErrors(error, form.setError);
      setFailed(true);
    }
  });

  return (
    <AdminPage title="Mailing">
      <Paper withBorder p="md" maw={800}>
        <form onSubmit={onSubmit} noValidate aria-label="Correo masivo">
          <Stack>
            <Alert color="blue" variant="light">
              {bulkMailTexts.notice}
            </Alert>
            <TextInput label="Asunto" required {...form.register('subject')} error={errors.subject?.message} />
            <TextInput label="Título" required {...form.register('title')} error={errors.title?.message} />
            <FormUploadField
              form={form}
              name="image"
              empty={null}
              clears="message"
              label="Imagen (opcional)"
              hint="Formatos: jpeg, jpg, png."
              target="bulk-mail-image"
              preview
              pending={pending}
            />
            <Textarea
              label="Mensaje"
              required
              autosize
              minRows={6}
              maxRows={16}
              {...form.register('message')}
              error={errors.message?.message}
            />
            <div aria-live="polite">
              {send.isPending ? (
                <Group gap="xs">
                  <Loader size="sm" />
                  <Text>{bulkMailTexts.sending}</Text>
                </Group>
              ) : null}
              {sent !== null ? (
                <Alert color="green" role="status">
                  {bulkMailTexts.sent} ({recipientsText(sent)})
                </Alert>
              ) : null}
              {failed ? (
                <Alert color="red" role="alert">
                  {bulkMailTexts.error}
                </Alert>
              ) : null}
            </div>
            <Group justify="flex-end">
              <Button type="submit" loading={send.isPending}>
                Enviar
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </AdminPage>
  );
}

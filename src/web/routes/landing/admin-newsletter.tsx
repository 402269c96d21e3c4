import { Alert, Button, Group, Image, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { messages } from '#shared/messages.ts';
import { PageLoader } from '#web/components/page-loader.tsx';
import { useAdminNewsletter, useSaveNewsletter } from '#web/features/landing/landing.admin.api.ts';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { UploadField } from '#web/components/console/upload-field.tsx';
import { usePendingUploads } from '#web/components/console/pending-uploads.ts';
import { mediaPath } from '#web/components/console/upload-client.ts';

export function AdminNewsletterPage() {
  const newsletter = useAdminNewsletter();
  const save = useSaveNewsletter();
  const pending = usePendingUploads();
  const [draft, setDraft] = useState<string | null>(null);
  const [result, setResult] = useState<'ok' | 'failed' | null>(null);

  if (newsletter.isPending) return <PageLoader />;
  const current = newsletter.data?.image ?? null;

  async function assign() {
    if (!draft) return;
    try {
      await save.mutateAsync(draft);
      pending.commit();
      setDraft(null);
      setResult('ok');
    } catch {
      setResult('failed');
    }
  }

  function cancel() {
    pending.release(draft);
    setDraft(null);
  }

  return (
    <AdminPage title="Newsletter">
      <Paper withBorder p="md" maw={900}>
        <Stack>
          <Text fw={600}>Imagen actual</Text>
          {current ? (
            <Image src={mediaPath(current)} alt="Imagen actual del newsletter" maw={800} radius="sm" />
          ) : (
            <Text c="dimmed">Sin imagen asignada.</Text>
          )}
          <UploadField
            label="Nueva imagen"
            hint="Tamaño mínimo recomendado: 800x220 px. Formatos: jpeg, jpg, png."
            target="newsletter-image"
            preview
            value={draft}
            onChange={(key) => {
              setResult(null);
              setDraft(key);
            }}
            pending={pending}
          />
          {result === 'ok' ? (
            <Alert color="green" role="status" c="green.9">
              {messages.newsletterImageChanged}
            </Alert>
          ) : null}
          {result === 'failed' ? (
            <Alert color="red" role="alert" c="red.9">
              {messages.newsletterImageFailed}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={cancel} disabled={!draft}>
              Cancelar
            </Button>
            <Button onClick={assign} disabled={!draft} loading={save.isPending}>
              Asignar
            </Button>
          </Group>
        </Stack>
      </Paper>
    </AdminPage>
  );
}

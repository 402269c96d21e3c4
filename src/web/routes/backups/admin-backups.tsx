import { Alert, Badge, Button, Card, Code, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { BackupRun, BackupsStatus } from '#shared/backups/backups.schemas.ts';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { notify } from '#web/components/console/notify.ts';
import { useBackups, useStartBackup } from '#web/features/backups/backups.api.ts';
import { formatSize, formatWhen, scheduleLabels, triggerLabels } from '#web/features/backups/format.ts';

const statusBadges: Record<BackupRun['status'], { label: string; color: string }> = {
  // dark enough for white text at badge size (WCAG AA)
  succeeded: { label: 'Correcto', color: '#1b5e20' },
  failed: { label: 'Falló', color: '#b71c1c' },
  running: { label: 'En curso', color: '#0d47a1' },
};

function Warning({ status }: { status: BackupsStatus }) {
  if (status.warning === 'failed') {
    return (
      <Alert color="red" title="El último respaldo falló" role="alert">
        <Stack gap={4}>
          <Text size="sm">
            {status.lastSucceededAt
              ? `El último respaldo correcto es del ${formatWhen(status.lastSucceededAt)}.`
              : 'Todavía no hay ningún respaldo correcto.'}{' '}
            Revisa la causa y vuelve a intentarlo.
          </Text>
          {status.last?.error ? (
            <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
              {status.last.error}
            </Text>
          ) : null}
        </Stack>
      </Alert>
    );
  }
  if (status.warning === 'stale') {
    return (
      <Alert color="yellow" title="El último respaldo tiene más de dos días" role="alert">
        El último respaldo correcto es del {formatWhen(status.lastSucceededAt!)}. Respalda ahora y revisa que el
        servidor esté en marcha para el respaldo programado.
      </Alert>
    );
  }
  if (status.warning === 'never') {
    return (
      <Alert color="yellow" title="Todavía no hay ningún respaldo" role="alert">
        Respalda ahora para poder recuperar el sitio si se pierde el disco.
      </Alert>
    );
  }
  return null;
}

function LastRun({ run }: { run: BackupRun | null }) {
  if (!run) return <Text c="dimmed">Aún no se ha hecho ningún respaldo.</Text>;
  const badge = statusBadges[run.status];
  const facts: [string, string][] = [
    ['Inicio', formatWhen(run.startedAt)],
    ['Fin', run.finishedAt ? formatWhen(run.finishedAt) : '—'],
    ['Tamaño', run.sizeBytes !== null ? formatSize(run.sizeBytes) : '—'],
    ['Archivos subidos', run.fileCount !== null ? String(run.fileCount) : '—'],
    ['Origen', triggerLabels[run.trigger] ?? run.trigger],
  ];
  return (
    <Stack gap="xs">
      <Badge color={badge.color} variant="filled" size="lg" tt="none">
        {badge.label}
      </Badge>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" component="dl" m={0}>
        {facts.map(([label, value]) => (
          <div key={label}>
            <Text component="dt" size="sm" c="dimmed">
              {label}
            </Text>
            <Text component="dd" m={0}>
              {value}
            </Text>
          </div>
        ))}
      </SimpleGrid>
      {run.fileName ? (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          Archivo: {run.fileName}
        </Text>
      ) : null}
    </Stack>
  );
}

/** /admin/respaldos: the last backup's time, size and result, a warning when it failed or is old, the kept archives. */
export function AdminBackupsPage() {
  const backups = useBackups();
  const start = useStartBackup();
  const busy = start.isPending || Boolean(backups.data?.pending);

  const onStart = () =>
    start.mutate(undefined, {
      onSuccess: ({ queued }) =>
        notifications.show({
          color: queued ? 'green' : 'blue',
          title: queued ? 'Respaldo en marcha' : 'Ya hay un respaldo en marcha',
          message: queued
            ? 'El sitio sigue funcionando mientras se respalda; el resultado aparecerá aquí.'
            : 'Espera a que termine; el resultado aparecerá aquí.',
        }),
      onError: notify.failed,
    });

  return (
    <AdminPage
      title="Respaldos"
      actions={
        <Button onClick={onStart} loading={busy} disabled={backups.isPending}>
          Respaldar ahora
        </Button>
      }
    >
      {backups.isPending ? (
        <Loader aria-label="Cargando respaldos" />
      ) : backups.isError ? (
        <Alert color="red" role="alert">
          No se pudo cargar el estado de los respaldos.
        </Alert>
      ) : (
        <>
          <Warning status={backups.data} />
          {backups.data.pending ? (
            <Text role="status" c="blue">
              Respaldando… el sitio sigue funcionando.
            </Text>
          ) : null}
          <Card withBorder>
            <Title order={2} fz="lg" mb="sm">
              Último respaldo
            </Title>
            <LastRun run={backups.data.last} />
          </Card>
          <Text size="sm">
            Respaldo automático: {scheduleLabels[backups.data.schedule]}. Se conservan los últimos {backups.data.keep}{' '}
            en{' '}
            <Text span ff="monospace" size="sm" style={{ overflowWrap: 'anywhere' }}>
              {backups.data.directory}
            </Text>
            . Cada archivo contiene la base de datos y los archivos subidos; se restaura con{' '}
            <Code>npm run restore</Code>.
          </Text>
          <Title order={2} fz="lg">
            Respaldos guardados
          </Title>
          {backups.data.archives.length === 0 ? (
            <Text role="status">No hay respaldos guardados.</Text>
          ) : (
            <Table striped aria-label="Respaldos guardados" fz="sm" horizontalSpacing="xs" layout="fixed">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w="45%">Archivo</Table.Th>
                  <Table.Th>Fecha</Table.Th>
                  <Table.Th w={80}>Tamaño</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {backups.data.archives.map((archive) => (
                  <Table.Tr key={archive.fileName}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{archive.fileName}</Table.Td>
                    <Table.Td>{formatWhen(archive.createdAt)}</Table.Td>
                    <Table.Td>{formatSize(archive.sizeBytes)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </>
      )}
    </AdminPage>
  );
}

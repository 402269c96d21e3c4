import { Badge, Button, Card, Code, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { LtiPlatform, LtiScore, LtiTool } from '#shared/lti/lti.admin.schemas.ts';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { ConfirmDeleteModal } from '#web/components/console/confirm-delete-modal.tsx';
import { notify } from '#web/components/console/notify.ts';
import { useDeleteLtiPlatform, useLtiConsole, useLtiScores } from '#web/features/lti/lti.api.ts';
import { LtiPlatformForm } from './lti-platform-form.tsx';
import { LtiRegistrationUrlModal } from './lti-registration-url.tsx';

const scoreBadges: Record<LtiScore['status'], { label: string; color: string }> = {
  // dark enough for white text at badge size (WCAG AA)
  enviada: { label: 'Enviada', color: '#1b5e20' },
  fallida: { label: 'Falló', color: '#b71c1c' },
  pendiente: { label: 'Pendiente', color: '#0d47a1' },
};

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('es-MX') : '—');

/** What an LMS administrator pastes when adding CxVet as an LTI 1.3 tool. */
function ToolCard({ tool }: { tool: LtiTool }) {
  const rows: [string, string][] = [
    ['URL de inicio de sesión (login initiation)', tool.loginUrl],
    ['URL de lanzamiento (redirect / launch)', tool.launchUrl],
    ['URL de vinculación profunda (deep linking)', tool.deepLinkingUrl],
    ['URL de claves públicas (JWKS)', tool.jwksUrl],
  ];
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Title order={2} fz="lg">
          Datos de CxVet para tu plataforma
        </Title>
        {rows.map(([label, value]) => (
          <div key={label}>
            <Text size="sm" c="dimmed">
              {label}
            </Text>
            <Code>{value}</Code>
          </div>
        ))}
        <Text size="sm" c="dimmed">
          Claves públicas (JWKS)
        </Text>
        <Code block style={{ maxHeight: 200, overflow: 'auto' }}>
          {JSON.stringify(tool.jwks, null, 2)}
        </Code>
      </Stack>
    </Card>
  );
}

function Scores() {
  const scores = useLtiScores();
  if (scores.isPending) return <Loader />;
  const items = scores.data ?? [];
  return (
    <Stack gap="xs">
      <Title order={2} fz="lg">
        Calificaciones enviadas
      </Title>
      {items.length === 0 ? (
        <Text c="dimmed">Aún no se ha enviado ninguna calificación.</Text>
      ) : (
        <Table.ScrollContainer minWidth={700}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Plataforma</Table.Th>
                <Table.Th>Curso</Table.Th>
                <Table.Th>Usuario</Table.Th>
                <Table.Th>Calificación</Table.Th>
                <Table.Th>Estado</Table.Th>
                <Table.Th>Enviada</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((score) => (
                <Table.Tr key={score.id}>
                  <Table.Td>{score.platformName}</Table.Td>
                  <Table.Td>{score.contextTitle ?? '—'}</Table.Td>
                  <Table.Td>{score.userName}</Table.Td>
                  <Table.Td>
                    {score.scoreGiven} / {score.scoreMaximum}
                  </Table.Td>
                  <Table.Td>
                    <Badge color={scoreBadges[score.status].color} variant="filled" tt="none">
                      {scoreBadges[score.status].label}
                    </Badge>
                    {score.lastError ? (
                      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {score.lastError} ({score.attempts} intentos)
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{when(score.sentAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

/** 'Plataformas LTI': the LMSs whose courses launch into CxVet. */
export function AdminLtiPage() {
  const data = useLtiConsole();
  const remove = useDeleteLtiPlatform();
  const [editing, setEditing] = useState<{ platform: LtiPlatform | null } | null>(null);
  const [deleting, setDeleting] = useState<LtiPlatform | null>(null);
  const [registering, setRegistering] = useState(false);
  return (
    <AdminPage
      title="Plataformas LTI"
      actions={
        <Group gap="xs">
          <Button variant="default" onClick={() => setRegistering(true)}>
            Registrar por URL
          </Button>
          <Button onClick={() => setEditing({ platform: null })}>Registrar plataforma</Button>
        </Group>
      }
    >
      {data.isPending ? <Loader /> : null}
      {data.data ? <ToolCard tool={data.data.tool} /> : null}
      {data.data && data.data.items.length === 0 ? (
        <Text c="dimmed">Todavía no hay plataformas registradas.</Text>
      ) : null}
      {data.data && data.data.items.length > 0 ? (
        <Table.ScrollContainer minWidth={700}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Nombre</Table.Th>
                <Table.Th>Emisor</Table.Th>
                <Table.Th>Client ID</Table.Th>
                <Table.Th>Organización</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.data.items.map((platform) => (
                <Table.Tr key={platform.id}>
                  <Table.Td>{platform.name}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{platform.issuer}</Table.Td>
                  <Table.Td>{platform.clientId}</Table.Td>
                  <Table.Td>{platform.organizationTitle}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="default" onClick={() => setEditing({ platform })}>
                        Editar
                      </Button>
                      <Button size="xs" color="red" variant="light" onClick={() => setDeleting(platform)}>
                        Eliminar
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <Scores />
      {editing ? (
        <LtiPlatformForm
          key={editing.platform?.id ?? 'nueva'}
          platform={editing.platform}
          opened
          onClose={() => setEditing(null)}
        />
      ) : null}
      {registering ? (
        <LtiRegistrationUrlModal
          opened
          onClose={() => {
            setRegistering(false);
            // the LMS may have registered meanwhile
            void data.refetch();
          }}
        />
      ) : null}
      <ConfirmDeleteModal
        opened={deleting !== null}
        loading={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() =>
          remove.mutate(deleting!.id, {
            onSuccess: () => {
              notify.deleted();
              setDeleting(null);
            },
            onError: (error) => notify.failed(error),
          })
        }
      />
    </AdminPage>
  );
}

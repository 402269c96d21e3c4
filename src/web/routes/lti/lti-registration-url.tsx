import { Alert, Button, Code, CopyButton, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { LtiRegistrationUrl } from '#shared/lti/lti.admin.schemas.ts';
import { notify } from '#web/components/console/notify.ts';
import { useAdminOrganizations } from '#web/features/organizations/organizations.api.ts';
import { useCreateLtiRegistration } from '#web/features/lti/lti.api.ts';
import { ApiError } from '#web/lib/api-client.ts';

/**
 * 'Registrar por URL': the Admin picks the organization and gets a one-time URL to paste into the LMS ('Register
 * tool by URL' in Moodle or Canvas); the platform registers itself and appears in the list.
 */
export function LtiRegistrationUrlModal(props: { opened: boolean; onClose: () => void }) {
  const organizations = useAdminOrganizations();
  const create = useCreateLtiRegistration();
  const [organizationId, setOrganizationId] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [made, setMade] = useState<LtiRegistrationUrl | null>(null);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!organizationId) {
      setError('Elige una organización');
      return;
    }
    create.mutate(
      { organizationId },
      {
        onSuccess: (answer) => {
          setError(undefined);
          setMade(answer);
        },
        onError: (failure) => {
          if (failure instanceof ApiError && failure.fields?.organizationId) setError(failure.fields.organizationId);
          else notify.failed(failure);
        },
      },
    );
  };

  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Registrar por URL" size="lg">
      {made ? (
        <Stack gap="sm">
          <Text>
            Pega esta URL en tu plataforma, en «Registrar herramienta por URL» (Moodle) o «Dynamic Registration»
            (Canvas). Sirve una sola vez y vence el {new Date(made.expiresAt).toLocaleString('es-MX')}.
          </Text>
          <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {made.url}
          </Code>
          <Alert color="blue" variant="light">
            Al terminar, la plataforma aparecerá en esta lista. Si no envió un deployment id, agrégalo con «Editar».
          </Alert>
          <Group justify="flex-end">
            <CopyButton value={made.url}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>
                  {copied ? 'URL copiada' : 'Copiar URL'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={props.onClose}>Listo</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Text>Los lanzamientos de la plataforma registrada entrarán a esta organización.</Text>
            <Select
              label="Organización"
              required
              data={(organizations.data ?? []).map((organization) => ({
                value: organization.id,
                label: organization.title,
              }))}
              value={organizationId || null}
              error={error}
              onChange={(value) => setOrganizationId(value ?? '')}
              searchable
            />
            <Group justify="flex-end" mt="sm">
              <Button variant="default" onClick={props.onClose}>
                Cancelar
              </Button>
              <Button type="submit" loading={create.isPending}>
                Crear URL de registro
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

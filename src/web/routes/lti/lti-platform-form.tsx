import { Button, Group, Modal, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { LtiPlatform, LtiPlatformInput } from '#shared/lti/lti.admin.schemas.ts';
import { notify } from '#web/components/console/notify.ts';
import { useAdminOrganizations } from '#web/features/organizations/organizations.api.ts';
import { useSaveLtiPlatform } from '#web/features/lti/lti.api.ts';
import { ApiError } from '#web/lib/api-client.ts';

type Fields = Omit<LtiPlatformInput, 'deploymentIds'> & { deploymentIds: string };

const empty: Fields = {
  name: '',
  issuer: '',
  clientId: '',
  deploymentIds: '',
  authorizationUrl: '',
  tokenUrl: '',
  jwksUrl: '',
  organizationId: '',
};

const fieldsOf = (platform: LtiPlatform | null): Fields =>
  platform ? { ...platform, deploymentIds: platform.deploymentIds.join('\n') } : empty;

/** Register or edit a platform: the values its LMS shows when CxVet is added as an external tool. */
export function LtiPlatformForm(props: { platform: LtiPlatform | null; opened: boolean; onClose: () => void }) {
  const [values, setValues] = useState<Fields>(() => fieldsOf(props.platform));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const organizations = useAdminOrganizations();
  const save = useSaveLtiPlatform();
  const bind = (name: keyof Fields) => ({
    value: values[name],
    error: errors[name],
    onChange: (event: { currentTarget: { value: string } }) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [name]: value }));
    },
  });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const input: LtiPlatformInput = {
      ...values,
      deploymentIds: values.deploymentIds
        .split(/[\n,]/)
        .map((id) => id.trim())
        .filter(Boolean),
    };
    save.mutate(
      { id: props.platform?.id ?? null, input },
      {
        onSuccess: () => {
          notify.saved();
          props.onClose();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.fields) {
            setErrors(error.fields);
            notify.invalid();
          } else notify.failed(error);
        },
      },
    );
  };

  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.platform ? 'Editar plataforma' : 'Registrar plataforma'}
      size="lg"
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label="Nombre" required {...bind('name')} />
          <Select
            label="Organización"
            required
            data={(organizations.data ?? []).map((organization) => ({
              value: organization.id,
              label: organization.title,
            }))}
            value={values.organizationId || null}
            error={errors.organizationId}
            onChange={(value) => setValues((current) => ({ ...current, organizationId: value ?? '' }))}
            searchable
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Emisor (issuer)" required {...bind('issuer')} />
            <TextInput label="Client ID" required {...bind('clientId')} />
          </SimpleGrid>
          <Textarea
            label="Deployment IDs"
            description="Uno por línea"
            required
            autosize
            minRows={2}
            {...bind('deploymentIds')}
          />
          <TextInput label="URL de autenticación (OIDC)" required {...bind('authorizationUrl')} />
          <TextInput label="URL de token (OAuth 2)" required {...bind('tokenUrl')} />
          <TextInput label="URL de claves (JWKS)" required {...bind('jwksUrl')} />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={props.onClose}>
              Cancelar
            </Button>
            <Button type="submit" loading={save.isPending}>
              Guardar
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

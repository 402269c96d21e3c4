import { Alert, Button, Group, Radio, Stack } from '@mantine/core';
import type { CertificateChoice } from '#shared/privacy/privacy.rules.ts';

/** What becomes of the member's certificates: kept verifiable without the name, or revoked. */
export function CertificateChoiceField(props: {
  label: string;
  keepLabel: string;
  revokeLabel: string;
  value: CertificateChoice;
  onChange: (value: CertificateChoice) => void;
}) {
  return (
    <Radio.Group
      label={props.label}
      value={props.value}
      onChange={(value) => props.onChange(value as CertificateChoice)}
    >
      <Stack gap="xs" mt={6}>
        <Radio value="keep" label={props.keepLabel} />
        <Radio value="revoke" label={props.revokeLabel} />
      </Stack>
    </Radio.Group>
  );
}

/** The end of a deletion form: why it was refused, Cancelar, and the red submit button. */
export function DeletionFormActions(props: {
  failureTitle: string;
  failure: string | null;
  pending: boolean;
  onCancel: () => void;
  submitLabel: string;
}) {
  return (
    <>
      {props.failure && (
        <Alert color="red" title={props.failureTitle} role="alert">
          {props.failure}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={props.onCancel} disabled={props.pending}>
          Cancelar
        </Button>
        <Button type="submit" color="red" loading={props.pending}>
          {props.submitLabel}
        </Button>
      </Group>
    </>
  );
}

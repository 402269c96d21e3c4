import { Button, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import dayjs from 'dayjs';
import { useState, type ReactNode } from 'react';
import type { z } from 'zod';
import { latestRevocationDay } from '#shared/time-zone.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { ApiError } from '#web/lib/api-client.ts';

export type Revocation = { reason: string; revokedOn: string };
type Fields = Partial<Record<keyof Revocation, string>>;

/** The latest revocation day the server accepts from this browser (time-zone.ts). */
const revocationDay = () => latestRevocationDay(dayjs().format('YYYY-MM-DD'), new Date());

/**
 * The console's revocation of what the site issued (a diploma's certificate, a credit): a reason and the day it
 * counts from, checked with the server's own schema, the server's field messages shown under their fields. The form
 * starts empty each time it opens (Mantine unmounts a closed modal's content).
 */
export function RevokeModal<Parsed extends Partial<Revocation>>({
  title,
  children,
  opened,
  onClose,
  schema,
  onRevoke,
}: {
  title: string;
  /** What the revocation does, in the words of the thing revoked. */
  children: ReactNode;
  opened: boolean;
  onClose: () => void;
  /** The route's own body schema, so the browser refuses what the server would, in the same words. */
  schema: z.ZodType<Parsed>;
  onRevoke: (revocation: Parsed) => Promise<unknown>;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <RevokeForm schema={schema} onRevoke={onRevoke} onClose={onClose}>
        {children}
      </RevokeForm>
    </Modal>
  );
}

function RevokeForm<Parsed extends Partial<Revocation>>({
  children,
  onClose,
  schema,
  onRevoke,
}: {
  children: ReactNode;
  onClose: () => void;
  schema: z.ZodType<Parsed>;
  onRevoke: (revocation: Parsed) => Promise<unknown>;
}) {
  const { showAppError } = useErrorModal();
  const [revocation, setRevocation] = useState<Revocation>(() => ({ reason: '', revokedOn: revocationDay() }));
  const [errors, setErrors] = useState<Fields>({});
  const [saving, setSaving] = useState(false);

  async function confirm() {
    const parsed = schema.safeParse(revocation);
    if (!parsed.success)
      return setErrors(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])));
    setSaving(true);
    try {
      await onRevoke(parsed.data);
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.fields) setErrors(error.fields);
      else showAppError(error);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Stack>
      <Text size="sm">{children}</Text>
      <Textarea
        label="Motivo"
        required
        autosize
        minRows={2}
        value={revocation.reason}
        onChange={(event) => setRevocation({ ...revocation, reason: event.currentTarget.value })}
        error={errors.reason}
      />
      <TextInput
        type="date"
        label="Fecha de revocación"
        required
        value={revocation.revokedOn}
        max={revocationDay()}
        onChange={(event) => setRevocation({ ...revocation, revokedOn: event.currentTarget.value })}
        error={errors.revokedOn}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancelar
        </Button>
        {/* red.9 on white keeps 4.5:1 (axe color-contrast); the default red.6 is about 3.3:1 */}
        <Button color="red.9" onClick={() => void confirm()} loading={saving}>
          Revocar
        </Button>
      </Group>
    </Stack>
  );
}

import { Button, Group, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { licenceInputSchema } from '#shared/credits/credits.schemas.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { useSaveLicence } from '#web/features/credits/credits.api.ts';

/** The member's cédula profesional, printed on the transcript and the CSV. */
export function LicenceForm({ licenceNumber }: { licenceNumber: string }) {
  const [value, setValue] = useState(licenceNumber);
  const [error, setError] = useState<string | null>(null);
  const save = useSaveLicence();
  const { showAppError } = useErrorModal();

  async function submit() {
    const parsed = licenceInputSchema.safeParse({ licenceNumber: value });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? null);
    setError(null);
    try {
      await save.mutateAsync(parsed.data);
      notifications.show({ color: 'green', message: 'Cédula profesional guardada.' });
    } catch (failure) {
      if (failure instanceof ApiError && failure.fields?.licenceNumber) setError(failure.fields.licenceNumber);
      else showAppError(failure);
    }
  }

  return (
    <Group
      align="flex-start"
      wrap="wrap"
      component="form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <TextInput
        label="Cédula profesional"
        description="Aparece en tu constancia anual y en el CSV."
        value={value}
        onChange={(event) => setValue(event.currentTarget.value)}
        error={error}
        style={{ flex: '1 1 14rem' }}
      />
      <Button type="submit" variant="light" mt={{ base: 0, xs: 46 }} loading={save.isPending}>
        Guardar cédula
      </Button>
    </Group>
  );
}

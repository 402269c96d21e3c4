import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { countOf } from '#shared/text.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { useLtiRoster, useSyncLtiRoster } from '#web/features/lti/lti.api.ts';

/** 'Sincronizar con el curso': shown only for an aula linked to an LMS course. */
export function LtiRosterButton({ classroomId, disabled }: { classroomId: string; disabled?: boolean }) {
  const roster = useLtiRoster(classroomId);
  const sync = useSyncLtiRoster(classroomId);
  const { showAppError } = useErrorModal();
  if (!roster.data || roster.data.courses.length === 0) return null;
  const run = async () => {
    try {
      const result = await sync.mutateAsync();
      notifications.show({
        color: 'green',
        message: `Lista sincronizada con ${roster.data.courses.join(', ')}: ${countOf(result.added, 'agregado', 'agregados')}, ${countOf(result.removed, 'quitado', 'quitados')}.`,
      });
    } catch (error) {
      showAppError(error);
    }
  };
  return (
    <Button variant="default" onClick={run} loading={sync.isPending} disabled={disabled}>
      Sincronizar con el curso
    </Button>
  );
}

import { useEffect, useState } from 'react';
import type { ExpiryWarning } from '#shared/classrooms/classrooms.schemas.ts';
import { NativeModal } from '#web/components/native-modal.tsx';
import { useCurrentUser } from '#web/features/accounts/current-user.api.ts';
import { claimExpiryWarnings } from '#web/features/classrooms/classrooms.api.ts';

const checkedUsers = new Set<string>();

/** Spec 3 §4: once per threshold, a member is told their aula expires soon; the server records that it was shown. */
export function ExpiryWarningNotice() {
  const { user } = useCurrentUser();
  const [warnings, setWarnings] = useState<ExpiryWarning[]>([]);
  const userId = user?.id;

  useEffect(() => {
    if (!userId || checkedUsers.has(userId)) return;
    checkedUsers.add(userId);
    claimExpiryWarnings()
      .then(setWarnings)
      .catch(() => {});
  }, [userId]);

  const close = () => setWarnings([]);
  return (
    // the browser's dialog: Mantine's Modal would load on every member page for a notice seldom shown
    <NativeModal
      opened={warnings.length > 0}
      title="Aviso de expiración de aula"
      text={warnings.map((warning) => (
        <span key={warning.classroomId} style={{ display: 'block' }}>
          El aula <strong>{warning.title}</strong> expira en {warning.timeLeft}. Después de esa fecha ya no podrás ver
          sus videos.
        </span>
      ))}
      button="Aceptar"
      onButton={close}
      escapable
      onBrowserClose={close}
    />
  );
}

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { NativeModal } from '#web/components/native-modal.tsx';
import { useCurrentUser } from '#web/features/accounts/current-user.api.ts';
import { membershipApi } from '#web/features/membership/membership.api.ts';

const checkedUsers = new Set<string>();

/** The startup check: once per app load for a signed-in member; a due scheduled change is announced once. */
export function MembershipCheckNotice() {
  const { user } = useCurrentUser();
  const queryClient = useQueryClient();
  const [changed, setChanged] = useState(false);
  const userId = user?.id;

  useEffect(() => {
    if (!userId || checkedUsers.has(userId)) return;
    checkedUsers.add(userId);
    membershipApi
      .check()
      .then(async (result) => {
        if (!result.changed) return;
        setChanged(true);
        await queryClient.invalidateQueries();
      })
      .catch(() => {});
  }, [userId, queryClient]);

  return (
    // the browser's dialog: Mantine's Modal would load on every member page for a notice seldom shown
    <NativeModal
      opened={changed}
      title="AVISO CAMBIO DE CUENTA"
      text="Se ha efectuado el cambio programado de cuenta"
      button="Aceptar"
      onButton={() => setChanged(false)}
      escapable
      onBrowserClose={() => setChanged(false)}
    />
  );
}

import { Checkbox, Stack, Switch } from '@mantine/core';
import dayjs from 'dayjs';
import { useState } from 'react';
import type { DiplomaUserRow, DiplomaUsersQuery } from '#shared/diplomas/diplomas.admin.schemas.ts';
import { PageLoader } from '#web/components/page-loader.tsx';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { AdminDataTable, useServerTable } from '#web/components/console/admin-data-table.tsx';
import {
  useAssignDiplomaUser,
  useDiplomaUsers,
  type UserListApi,
} from '#web/features/diplomas/admin/diplomas.admin.api.ts';
import { EmailText } from '#web/components/email-text.tsx';

/** Tab 3 and the 'Administrar Usuarios' modal: Premium, Legacy and Admin users with a checkbox, and 'only assigned'. */
export function DiplomaUsersTable({ scope, diplomaId }: { scope: UserListApi; diplomaId: string }) {
  const table = useServerTable<DiplomaUsersQuery['sort']>({ column: 'email', direction: 'asc' });
  const [onlyAssigned, setOnlyAssigned] = useState(false);
  const users = useDiplomaUsers(scope, diplomaId, { ...table.query, assignedOnly: onlyAssigned });
  const assign = useAssignDiplomaUser(scope, diplomaId);
  const { showAppError } = useErrorModal();
  // the box follows the click at once; the server's answer (and the refreshed list) settles it
  const [overrides, setOverrides] = useState<Record<string, boolean>>({});

  function toggle(userId: string, assigned: boolean) {
    setOverrides((current) => ({ ...current, [userId]: assigned }));
    void assign
      .mutateAsync({ userId, assigned })
      .catch(showAppError)
      .finally(() =>
        setOverrides((current) => {
          const { [userId]: _settled, ...rest } = current;
          return rest;
        }),
      );
  }

  if (users.isPending) return <PageLoader />;
  if (users.isError) throw users.error;

  return (
    <Stack>
      <Switch
        label="Mostrar solo usuarios asignados"
        checked={onlyAssigned}
        onChange={(event) => {
          setOnlyAssigned(event.currentTarget.checked);
          table.resetPage();
        }}
      />
      <AdminDataTable<DiplomaUserRow>
        mode="server"
        label="Usuarios del diplomado"
        records={users.data.items}
        total={users.data.total}
        fetching={users.isFetching}
        {...table.props}
        columns={[
          {
            accessor: 'assigned',
            title: 'Asignado',
            sortable: true,
            render: (user) => (
              <Checkbox
                checked={overrides[user.id] ?? user.assigned}
                onChange={(event) => toggle(user.id, event.currentTarget.checked)}
                aria-label={`Asignar ${user.email}`}
              />
            ),
          },
          { accessor: 'name', title: 'Nombre', sortable: true },
          { accessor: 'email', title: 'Correo', sortable: true, render: (row) => <EmailText email={row.email} /> },
          { accessor: 'type', title: 'Tipo', sortable: true },
          {
            accessor: 'beganAt',
            title: 'Inicio',
            sortable: true,
            render: (user) => (user.beganAt ? dayjs(user.beganAt).format('DD/MM/YYYY HH:mm') : '—'),
          },
        ]}
      />
    </Stack>
  );
}

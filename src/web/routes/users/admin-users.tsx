import { Alert, Anchor, Button, Checkbox, Group } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AdminUserRow, AdminUsersQuery } from '#shared/accounts/users.admin.schemas.ts';
import { errorContent } from '#web/components/error-modal.tsx';
import { firstUsersPage, useAdminUsers } from '#web/features/users/users.api.ts';
import { UsersReportButton } from '#web/features/users/components/users-report-button.tsx';
import { membershipLabel, phoneLabel, spanishDate } from '#web/features/users/format.ts';
import { AdminDataTable, useServerTable } from '#web/components/console/admin-data-table.tsx';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { href, paths } from '#web/paths.ts';
import { EmailText } from '#web/components/email-text.tsx';

export function AdminUsersPage() {
  const table = useServerTable<AdminUsersQuery['sort']>({
    column: firstUsersPage.sort,
    direction: firstUsersPage.dir,
  });
  const [manualOnly, setManualOnly] = useState<boolean>(firstUsersPage.manualOnly);
  const query = useAdminUsers({ ...table.query, manualOnly });

  return (
    <AdminPage
      title="Usuarios"
      actions={
        <>
          <UsersReportButton />
          <Button component={Link} to={href.adminUser()}>
            Crear nuevo usuario
          </Button>
        </>
      }
    >
      <Group justify="space-between" gap="sm">
        <Checkbox
          label="Mostrar solo usuarios premium manual"
          checked={manualOnly}
          onChange={(event) => {
            setManualOnly(event.currentTarget.checked);
            table.resetPage();
          }}
        />
        <Group gap="md">
          <Anchor component={Link} to={paths.adminManualPremium} size="sm">
            Usuarios premium manual
          </Anchor>
          <Anchor component={Link} to={paths.adminManualPremiumUpgrade} size="sm">
            Actualizar a premium manual
          </Anchor>
          <Anchor component={Link} to={paths.adminManualPremiumDowngrade} size="sm">
            Quitar premium manual
          </Anchor>
        </Group>
      </Group>
      {query.isError ? (
        <Alert color="red" title="Error" role="alert">
          {errorContent(query.error).message}
        </Alert>
      ) : null}
      <AdminDataTable<AdminUserRow>
        mode="server"
        label="Usuarios"
        records={query.data?.items ?? []}
        total={query.data?.total ?? 0}
        fetching={query.isFetching}
        {...table.props}
        rowLink={{ href: (record) => href.adminUser(record.id), column: 'name' }}
        columns={[
          {
            accessor: 'name',
            title: 'Nombre',
            sortable: true,
            render: (row) => row.name || row.email,
          },
          { accessor: 'email', title: 'Correo', sortable: true, render: (row) => <EmailText email={row.email} /> },
          {
            accessor: 'phoneNumber',
            title: 'Teléfono',
            sortable: true,
            noWrap: true,
            render: (row) => phoneLabel(row.phoneNumber),
          },
          { accessor: 'type', title: 'Membresía', sortable: true, render: membershipLabel },
          {
            accessor: 'createdAt',
            title: 'Fecha de registro',
            sortable: true,
            noWrap: true,
            render: (row) => spanishDate(row.createdAt),
          },
        ]}
      />
    </AdminPage>
  );
}

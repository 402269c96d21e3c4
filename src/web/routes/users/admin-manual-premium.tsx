import { Alert } from '@mantine/core';
import { manualPremiumMessages, type ManualPremiumRow } from '#shared/membership/manual-premium.schemas.ts';
import { useManualPremiumUsers } from '#web/features/users/users.api.ts';
import {
  ManualPremiumLinks,
  useManualPremiumLoadFailure,
} from '#web/features/users/components/manual-premium-links.tsx';
import { spanishDate } from '#web/features/users/format.ts';
import { AdminDataTable } from '#web/components/console/admin-data-table.tsx';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { paths } from '#web/paths.ts';
import { EmailText } from '#web/components/email-text.tsx';

export function AdminManualPremiumPage() {
  const users = useManualPremiumUsers();
  useManualPremiumLoadFailure(users.isError);

  return (
    <AdminPage title="Usuarios premium manual" actions={<ManualPremiumLinks current={paths.adminManualPremium} />}>
      {users.isError ? (
        <Alert color="red" role="alert">
          {manualPremiumMessages.failed}
        </Alert>
      ) : null}
      <AdminDataTable<ManualPremiumRow>
        mode="client"
        label="Usuarios premium manual"
        records={users.data ?? []}
        fetching={users.isPending}
        initialSort={{ column: 'email', direction: 'asc' }}
        searchText={(row) => `${row.name} ${row.email} ${row.plan}`}
        sortValue={(row, column) => String(row[column as keyof ManualPremiumRow] ?? '')}
        columns={[
          { accessor: 'name', title: 'Nombre', sortable: true, render: (row) => row.name || '-' },
          { accessor: 'email', title: 'Correo', sortable: true, render: (row) => <EmailText email={row.email} /> },
          { accessor: 'plan', title: 'Tipo', sortable: true },
          {
            accessor: 'paymentDay',
            title: 'Fecha de pago',
            sortable: true,
            noWrap: true,
            render: (row) => spanishDate(row.paymentDay),
          },
          {
            accessor: 'expiresAt',
            title: 'Vencimiento',
            sortable: true,
            noWrap: true,
            render: (row) => spanishDate(row.expiresAt),
          },
        ]}
      />
    </AdminPage>
  );
}

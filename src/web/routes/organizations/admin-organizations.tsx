import { Button } from '@mantine/core';
import { Link } from 'react-router';
import type { AdminOrganization } from '#shared/organizations/organizations.admin.schemas.ts';
import { useAdminOrganizations } from '#web/features/organizations/organizations.api.ts';
import { AdminDataTable } from '#web/components/console/admin-data-table.tsx';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { href, paths } from '#web/paths.ts';

export function AdminOrganizationsPage() {
  const organizations = useAdminOrganizations();
  return (
    <AdminPage
      title="Organizaciones"
      actions={
        <Button component={Link} to={paths.adminOrganizationCreate}>
          Crear organización
        </Button>
      }
    >
      <AdminDataTable<AdminOrganization>
        mode="client"
        label="Organizaciones"
        records={organizations.data ?? []}
        fetching={organizations.isPending}
        initialSort={{ column: 'title', direction: 'asc' }}
        searchText={(organization) => `${organization.title} ${organization.type}`}
        rowLink={{ href: (organization) => href.adminOrganization(organization.id), column: 'title' }}
        columns={[
          { accessor: 'title', title: 'Título', sortable: true },
          { accessor: 'type', title: 'Tipo de organización', sortable: true },
          {
            accessor: 'actions',
            title: 'Acciones',
            render: (organization) => (
              <Button
                component={Link}
                to={href.adminOrganization(organization.id)}
                size="compact-sm"
                variant="default"
                onClick={(event) => event.stopPropagation()}
                aria-label={`Editar ${organization.title}`}
              >
                Editar
              </Button>
            ),
          },
        ]}
      />
    </AdminPage>
  );
}

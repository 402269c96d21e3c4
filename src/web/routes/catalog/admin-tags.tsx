import { Button } from '@mantine/core';
import { Link } from 'react-router';
import type { AdminTag } from '#shared/catalog/tags.admin.schemas.ts';
import { useAdminTags } from '#web/features/catalog/catalog.admin.api.ts';
import { AdminDataTable } from '#web/components/console/admin-data-table.tsx';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { href, paths } from '#web/paths.ts';

export function AdminTagsPage() {
  const tags = useAdminTags();
  return (
    <AdminPage
      title="Etiquetas"
      actions={
        <>
          <Button component={Link} to={paths.adminProcedures} variant="default">
            Administrar procedimientos
          </Button>
          <Button component={Link} to={href.adminTag()}>
            Crear nueva etiqueta
          </Button>
        </>
      }
    >
      <AdminDataTable<AdminTag>
        mode="client"
        label="Etiquetas"
        records={tags.data ?? []}
        fetching={tags.isPending}
        initialSort={{ column: 'name', direction: 'asc' }}
        searchText={(tag) => tag.name}
        rowLink={{ href: (tag) => href.adminTag(tag.id), column: 'name' }}
        columns={[{ accessor: 'name', title: 'Nombre', sortable: true }]}
      />
    </AdminPage>
  );
}

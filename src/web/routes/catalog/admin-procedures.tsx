import { Badge, Button, Group } from '@mantine/core';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import type { AdminProcedureRow } from '#shared/catalog/procedures.admin.schemas.ts';
import { adminProcedureSortColumns } from '#shared/catalog/procedures.admin.schemas.ts';
import { firstProceduresPage, useAdminProcedures } from '#web/features/catalog/catalog.admin.api.ts';
import { AdminDataTable, useServerTable } from '#web/components/console/admin-data-table.tsx';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { href, paths } from '#web/paths.ts';

type SortColumn = (typeof adminProcedureSortColumns)[number];

export function AdminProceduresPage() {
  const table = useServerTable<SortColumn>({
    column: firstProceduresPage.sort,
    direction: firstProceduresPage.dir,
  });
  const query = useAdminProcedures(table.query);

  return (
    <AdminPage
      title="Procedimientos"
      actions={
        <>
          <Button component={Link} to={paths.adminTags} variant="default">
            Administrar etiquetas
          </Button>
          <Button component={Link} to={href.adminProcedure()}>
            Crear nuevo procedimiento
          </Button>
        </>
      }
    >
      <AdminDataTable<AdminProcedureRow>
        mode="server"
        label="Procedimientos"
        records={query.data?.items ?? []}
        total={query.data?.total ?? 0}
        fetching={query.isFetching}
        {...table.props}
        rowLink={{ href: (record) => href.adminProcedure(record.id), column: 'name' }}
        columns={[
          {
            accessor: 'createdAt',
            title: 'Fecha de creación',
            sortable: true,
            render: (row) => dayjs(row.createdAt).format('DD/MM/YYYY'),
          },
          {
            accessor: 'name',
            title: 'Nombre',
            sortable: true,
          },
          { accessor: 'type', title: 'Tipo de usuario', sortable: true },
          { accessor: 'species', title: 'Especie', sortable: true },
          {
            accessor: 'tags',
            title: 'Etiquetas',
            render: (row) => (
              <Group gap={4}>
                {row.tags.map((tag) => (
                  <Badge key={tag} variant="light" color="gray" c="dark.7" tt="none">
                    {tag}
                  </Badge>
                ))}
              </Group>
            ),
          },
        ]}
      />
    </AdminPage>
  );
}

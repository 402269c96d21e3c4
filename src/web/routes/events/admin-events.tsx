import { Button } from '@mantine/core';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import type { AdminEventRow } from '#shared/events/events.admin.schemas.ts';
import { useAdminEvents } from '#web/features/events/events.api.ts';
import { AdminDataTable } from '#web/components/console/admin-data-table.tsx';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { href } from '#web/paths.ts';

export function AdminEventsPage() {
  const events = useAdminEvents();
  return (
    <AdminPage
      title="Eventos"
      actions={
        <Button component={Link} to={href.adminEvent()}>
          Crear nuevo evento
        </Button>
      }
    >
      <AdminDataTable<AdminEventRow>
        mode="client"
        label="Eventos"
        records={events.data ?? []}
        fetching={events.isPending}
        initialSort={{ column: 'sortDate', direction: 'asc' }}
        searchText={(event) => `${event.name} ${event.type} ${event.displayDate} ${event.status}`}
        rowLink={{ href: (event) => href.adminEvent(event.id), column: 'name' }}
        columns={[
          {
            accessor: 'sortDate',
            title: 'Fecha de orden',
            sortable: true,
            render: (event) => dayjs(event.sortDate).format('DD/MM/YYYY'),
          },
          { accessor: 'name', title: 'Nombre', sortable: true },
          { accessor: 'type', title: 'Tipo de evento', sortable: true },
          { accessor: 'displayDate', title: 'Fecha mostrada', sortable: true },
          {
            accessor: 'status',
            title: 'Estatus',
            sortable: true,
          },
        ]}
      />
    </AdminPage>
  );
}

// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messages } from '#shared/messages.ts';
import { renderWithApp } from '#web/testing/render.tsx';
import { AdminDataTable, useServerTable } from './admin-data-table.tsx';

type Row = { id: string; name: string; species: string; total: number };

// 15 rows: one page of 12 and a second of 3
const rows: Row[] = Array.from({ length: 15 }, (_, index) => ({
  id: `id-${index + 1}`,
  name: `Procedimiento ${String(index + 1).padStart(2, '0')}`,
  species: index % 2 === 0 ? 'Perro' : 'Gato',
  total: (index * 7) % 15,
}));

function ClientTable({ records = rows }: { records?: Row[] }) {
  return (
    <AdminDataTable<Row>
      mode="client"
      label="Procedimientos"
      records={records}
      initialSort={{ column: 'name', direction: 'asc' }}
      searchText={(row) => `${row.name} ${row.species}`}
      sortValue={(row, column) => (column === 'total' ? row.total : String(row[column as keyof Row]))}
      rowLink={{ href: (row) => `/registro/${row.id}`, column: 'name' }}
      columns={[
        { accessor: 'name', title: 'Nombre', sortable: true },
        { accessor: 'species', title: 'Especie', sortable: true },
        { accessor: 'total', title: 'Total', sortable: true },
      ]}
    />
  );
}

/** The names in the table body, top to bottom. */
function shownNames() {
  const table = screen.getByRole('table', { name: 'Procedimientos' });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]!.textContent);
}

describe('the console data table', () => {
  it('shows 12 rows a page and pages with Siguiente and Anterior', async () => {
    const { user } = renderWithApp(<ClientTable />);
    expect(shownNames()).toHaveLength(12);
    expect(screen.getByText('Mostrando del 1 al 12 de 15 resultados')).toBeTruthy();
    expect(screen.getByText('Página 1 de 2')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Anterior' }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(shownNames()).toEqual(['Procedimiento 13', 'Procedimiento 14', 'Procedimiento 15']);
    expect(screen.getByText('Mostrando del 13 al 15 de 15 resultados')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Siguiente' }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Anterior' }));
    expect(shownNames()[0]).toBe('Procedimiento 01');
  });

  it('sorts by a column header, then the other way on a second click', async () => {
    const { user } = renderWithApp(<ClientTable />);
    await user.click(screen.getByText('Total'));
    const ascending = shownNames();
    const totals = (names: (string | null)[]) => names.map((name) => rows.find((row) => row.name === name)!.total);
    expect(totals(ascending)).toEqual([...totals(ascending)].sort((a, b) => a - b));
    expect(totals(ascending)[0]).toBe(0);

    await user.click(screen.getByText('Total'));
    expect(totals(shownNames())[0]).toBe(14);
  });

  it('searches without accents or case and starts again at page 1', async () => {
    const { user } = renderWithApp(
      <ClientTable records={[...rows, { id: 'x', name: 'Cirugía ÓSEA', species: 'Perro', total: 1 }]} />,
    );
    await user.click(screen.getByRole('button', { name: 'Siguiente' }));
    await user.type(screen.getByRole('searchbox', { name: 'Buscar' }), 'cirugia osea');
    expect(shownNames()).toEqual(['Cirugía ÓSEA']);
    expect(screen.getByText('Mostrando del 1 al 1 de 1 resultados')).toBeTruthy();
  });

  it('says so in Spanish when nothing matches', async () => {
    const { user } = renderWithApp(<ClientTable />);
    await user.type(screen.getByRole('searchbox', { name: 'Buscar' }), 'zzz');
    expect(screen.getByText(messages.emptyTable)).toBeTruthy();
    expect(screen.getByText('Mostrando del 0 al 0 de 0 resultados')).toBeTruthy();
  });

  it('opens a record from its name link', async () => {
    const { user } = renderWithApp(<ClientTable />, { routes: { '/registro/:id': <p>Registro abierto</p> } });
    await user.click(screen.getByRole('link', { name: 'Procedimiento 02' }));
    expect(await screen.findByText('Registro abierto')).toBeTruthy();
  });
});

function ServerTable() {
  const table = useServerTable<'name' | 'species'>({ column: 'name', direction: 'asc' }, 0);
  return (
    <>
      <output>{JSON.stringify(table.query)}</output>
      <AdminDataTable<Row>
        mode="server"
        label="Procedimientos"
        records={rows.slice(0, 12)}
        total={40}
        {...table.props}
        columns={[
          { accessor: 'name', title: 'Nombre', sortable: true },
          { accessor: 'species', title: 'Especie', sortable: true },
        ]}
      />
    </>
  );
}

describe('a server-paged table', () => {
  const query = () => JSON.parse(screen.getByRole('status').textContent ?? '{}');

  it('asks the server for the next page, and for page 1 again when the sort or the search changes', async () => {
    const { user } = renderWithApp(<ServerTable />);
    expect(query()).toEqual({ sort: 'name', dir: 'asc', page: 1 });
    expect(screen.getByText('Página 1 de 4')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Siguiente' }));
    await user.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(query()).toMatchObject({ page: 3 });
    expect(screen.getByText('Mostrando del 25 al 36 de 40 resultados')).toBeTruthy();

    await user.click(screen.getByText('Especie'));
    expect(query()).toEqual({ sort: 'species', dir: 'asc', page: 1 });

    await user.click(screen.getByRole('button', { name: 'Siguiente' }));
    await user.type(screen.getByRole('searchbox', { name: 'Buscar' }), ' perro ');
    expect(await screen.findByText(/"q":"perro"/)).toBeTruthy();
    expect(query()).toMatchObject({ q: 'perro', page: 1 });
  });
});

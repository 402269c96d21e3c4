// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { ClassroomCandidate } from '#shared/classrooms/classrooms.schemas.ts';
import { renderWithApp, stubApi } from '#web/testing/render.tsx';
import { ClassroomMembersTable, noEdits, type MemberEdits } from './members-table.tsx';

// the server's side: 30 accounts, the first one saved in the aula
const accounts: ClassroomCandidate[] = Array.from({ length: 30 }, (_, index) => ({
  id: `u${index + 1}`,
  name: `Alumna ${index + 1}`,
  email: `alumna${String(index + 1).padStart(2, '0')}@uni.example.com`,
  assigned: index === 0,
}));

function serveCandidates() {
  return stubApi({
    'GET /api/classroom-admin/classrooms/aula-1/candidates': ({ url }) => {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const page = Number(url.searchParams.get('page') ?? '1');
      const matching = accounts.filter(
        (user) => user.email.includes(q) && (url.searchParams.get('assignedOnly') !== 'true' || user.assigned),
      );
      return { items: matching.slice((page - 1) * 12, page * 12), total: matching.length };
    },
  });
}

function Page() {
  const [edits, setEdits] = useState<MemberEdits>(noEdits);
  return (
    <>
      <ClassroomMembersTable
        source={{ scope: 'classroom-admin', classroomId: 'aula-1' }}
        savedCount={1}
        edits={edits}
        onEditsChange={setEdits}
      />
      <output>{`+${[...edits.added.keys()].join(',')} -${[...edits.removed].join(',')}`}</output>
    </>
  );
}

describe('the aula’s users table', () => {
  it('asks the server for one page at a time and keeps every tick and untick across pages and searches', async () => {
    const calls = serveCandidates();
    const { user } = renderWithApp(<Page />);
    const table = await screen.findByRole('table', { name: 'Usuarios del aula' });
    const box = (email: string) => within(table).findByRole('checkbox', { name: `Seleccionar ${email}` });
    expect(await box('alumna01@uni.example.com')).toHaveProperty('checked', true);
    expect(within(table).getAllByRole('row')).toHaveLength(13);

    await user.click(await box('alumna02@uni.example.com'));
    await user.click(await box('alumna01@uni.example.com'));
    await user.click(screen.getByRole('button', { name: 'Siguiente' }));
    await user.click(await box('alumna20@uni.example.com'));
    expect(screen.getByText('2 seleccionados')).toBeTruthy();

    await user.type(screen.getByRole('searchbox', { name: 'Buscar' }), 'alumna02');
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(await box('alumna02@uni.example.com')).toHaveProperty('checked', true);
    await user.clear(screen.getByRole('searchbox', { name: 'Buscar' }));
    expect(await box('alumna01@uni.example.com')).toHaveProperty('checked', false);

    // what 'Guardar' sends
    expect(screen.getByRole('status').textContent).toBe('+u2,u20 -u1');
    expect(calls.every((call) => call.path.endsWith('/candidates'))).toBe(true);
  });

  it('shows, with only the selected, the saved members from the server and the accounts ticked since', async () => {
    serveCandidates();
    const { user } = renderWithApp(<Page />);
    const table = await screen.findByRole('table', { name: 'Usuarios del aula' });
    await user.click(await within(table).findByRole('checkbox', { name: 'Seleccionar alumna05@uni.example.com' }));
    await user.click(screen.getByRole('checkbox', { name: 'Mostrar solo seleccionados' }));

    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(within(table).getByText('alumna01@uni.example.com')).toBeTruthy();
    const pending = screen.getByRole('table', { name: 'Usuarios por agregar' });
    expect(within(pending).getByText('alumna05@uni.example.com')).toBeTruthy();
    // unticked there, it leaves the selection
    await user.click(within(pending).getByRole('checkbox', { name: 'Seleccionar alumna05@uni.example.com' }));
    expect(screen.queryByRole('table', { name: 'Usuarios por agregar' })).toBeNull();
    expect(screen.getByText('1 seleccionado')).toBeTruthy();
  });
});

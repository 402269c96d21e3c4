// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '#web/testing/render.tsx';
import * as text from '#shared/text.ts';
import { SelectableTable } from './selectable-table.tsx';

vi.mock('#shared/text.ts', { spy: true });

type Member = { id: string; name: string; email: string };
// many records, searched and clicked
const members: Member[] = Array.from({ length: 2000 }, (_, index) => ({
  id: `u${index}`,
  name: `Miembro ${index}`,
  email: `miembro${index}@example.com`,
}));

function Table() {
  const [selected, setSelected] = useState<string[]>([]);
  return (
    <SelectableTable<Member>
      label="Videos del aula"
      records={members}
      selectedIds={selected}
      onChange={setSelected}
      searchText={(member) => `${member.email}\n${member.name}`}
      columns={[{ accessor: 'name', title: 'Nombre' }]}
    />
  );
}

describe('the aula’s videos table', () => {
  it('folds each record’s text once, not again on every keystroke and click', async () => {
    const { user } = renderWithApp(<Table />);
    await user.type(screen.getByRole('searchbox', { name: 'Buscar' }), 'miembro19');
    await user.click(await screen.findByRole('checkbox', { name: 'Seleccionar miembro19@example.com' }));
    await user.click(screen.getByRole('checkbox', { name: 'Seleccionar miembro199@example.com' }));
    expect(screen.getByText('2 seleccionados')).toBeTruthy();
    // each record once, and the needle once per keystroke and render: far below records × renders
    expect(vi.mocked(text.foldForSearch).mock.calls.length).toBeLessThan(members.length + 100);
  });
});

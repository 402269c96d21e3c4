// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { queryOptions } from '@tanstack/react-query';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { api, queryString } from '#web/lib/api-client.ts';
import { errorAnswer, renderWithApp, stubApi } from '#web/testing/render.tsx';
import { ServerSearchSelect, type SearchOption } from './server-search-select.tsx';

type Account = { id: string; email: string };
const accounts: Account[] = [
  { id: 'u1', email: 'ana@demo.cxvet.com' },
  { id: 'u2', email: 'andres@demo.cxvet.com' },
  { id: 'u3', email: 'beto@demo.cxvet.com' },
];

const accountsQuery = (q: string) =>
  queryOptions({
    queryKey: ['accounts', q],
    queryFn: ({ signal }) => api.get<{ users: Account[] }>(`/api/accounts${queryString({ q })}`, { signal }),
  });

/** The server's side: answers the e-mails containing `q` (or its own pick) and remembers every `q` asked. */
function serveAccounts(answer: (q: string) => Account[] = (q) => accounts.filter((user) => user.email.includes(q))) {
  const searched: string[] = [];
  stubApi({
    'GET /api/accounts': ({ url }) => {
      const q = url.searchParams.get('q') ?? '';
      searched.push(q);
      return { users: answer(q) };
    },
  });
  return searched;
}

function Picker(props: { initial?: SearchOption | null; onSearchError?: () => void }) {
  const [chosen, setChosen] = useState<SearchOption | null>(props.initial ?? null);
  return (
    <>
      <ServerSearchSelect
        label="Correo del usuario"
        placeholder="Escribe para buscar por correo"
        query={accountsQuery}
        toOptions={(body) => body.users.map((user) => ({ value: user.id, label: user.email }))}
        value={chosen}
        onChange={setChosen}
        nothingFoundMessage="No hay usuarios con ese correo"
        onSearchError={props.onSearchError}
      />
      <output>{chosen ? `${chosen.value} ${chosen.label}` : 'nadie'}</output>
    </>
  );
}

const field = () => screen.getByRole('combobox', { name: 'Correo del usuario' });
const shownOptions = () =>
  within(screen.getByRole('listbox'))
    .getAllByRole('option')
    .map((option) => option.textContent);

describe('the server-searched picker', () => {
  it('asks the server once the typed text settles and lists its answer as it is', async () => {
    // the server matches more than the letters typed (e.g. accents): nothing is filtered again here
    const searched = serveAccounts((q) => (q === 'andres' ? accounts.slice(0, 2) : accounts));
    const { user } = renderWithApp(<Picker />);
    await user.type(field(), '  andres ');

    await waitFor(() => expect(searched.at(-1)).toBe('andres'));
    await waitFor(() => expect(shownOptions()).toEqual(['ana@demo.cxvet.com', 'andres@demo.cxvet.com']));
    expect(searched).not.toContain('a');
  });

  it('shows the chosen e-mail in the field and, opened again, lists every account instead of searching for it', async () => {
    const searched = serveAccounts();
    const { user } = renderWithApp(<Picker />);
    await user.type(field(), 'beto');
    await user.click(await screen.findByRole('option', { name: 'beto@demo.cxvet.com' }));

    expect(screen.getByText('u3 beto@demo.cxvet.com')).toBeTruthy();
    expect(field()).toHaveProperty('value', 'beto@demo.cxvet.com');
    await user.click(field());
    await waitFor(() => expect(shownOptions()).toEqual(accounts.map((account) => account.email)));
    expect(searched).not.toContain('beto@demo.cxvet.com');
  });

  it('shows an account chosen before (a saved record) first in the list, although the answer does not hold it', async () => {
    serveAccounts(() => accounts.slice(0, 1));
    const { user } = renderWithApp(<Picker initial={{ value: 'u9', label: 'zoe@demo.cxvet.com' }} />);
    expect(field()).toHaveProperty('value', 'zoe@demo.cxvet.com');
    await user.click(field());
    await waitFor(() => expect(shownOptions()).toEqual(['zoe@demo.cxvet.com', 'ana@demo.cxvet.com']));
  });

  it("clears the choice with the field's clear button", async () => {
    serveAccounts();
    const { user, container } = renderWithApp(<Picker initial={{ value: 'u1', label: 'ana@demo.cxvet.com' }} />);
    await user.click(container.querySelector('.mantine-InputClearButton-root')!);
    expect(screen.getByText('nadie')).toBeTruthy();
    expect(field()).toHaveProperty('value', '');
  });

  it("says 'Buscando…' while the server searches and the screen's message when it found nothing", async () => {
    // every search waits for the test; a slow machine may settle on 'z' before 'zz', so each is answered by its text
    const waiting = new Map<string, (body: { users: Account[] }) => void>();
    stubApi({
      'GET /api/accounts': ({ url }) => {
        const q = url.searchParams.get('q') ?? '';
        return q ? new Promise((resolve) => waiting.set(q, resolve)) : { users: [] };
      },
    });
    const { user } = renderWithApp(<Picker />);
    await user.type(field(), 'zz');
    await waitFor(() => expect(waiting.has('zz')).toBe(true));
    expect(await screen.findByText('Buscando…')).toBeTruthy();
    for (const resolve of waiting.values()) resolve({ users: [] });
    expect(await screen.findByText('No hay usuarios con ese correo')).toBeTruthy();
  });

  it('tells the screen once when the search fails', async () => {
    stubApi({ 'GET /api/accounts': () => errorAnswer(500, { code: 'INTERNAL', message: 'Error' }) });
    const failed = vi.fn();
    renderWithApp(<Picker onSearchError={failed} />);
    await waitFor(() => expect(failed).toHaveBeenCalledTimes(1));
  });
});

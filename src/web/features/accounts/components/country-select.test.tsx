// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '#web/testing/render.tsx';
import { CountrySelect } from './country-select.tsx';

function Form({ onSubmit, onChange }: { onSubmit: (country: string) => void; onChange?: (country: string) => void }) {
  const [country, setCountry] = useState('');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(country);
      }}
    >
      <CountrySelect
        value={country}
        onChange={(next) => {
          onChange?.(next);
          setCountry(next);
        }}
      />
      <button type="submit">Siguiente</button>
    </form>
  );
}

const field = () => screen.getByRole('combobox', { name: /^País/ });

describe('the country field', () => {
  // Typed faster than the browser runs its timers (a busy phone, a loaded test machine), Mantine's
  // dropdown-open timer fires after the last letter and forgets the highlighted match: Enter then sent the
  // sign-up form with no country, although México was shown highlighted.
  it('takes Enter for the highlighted match even when the letters outran the timers, and does not send the form', async () => {
    const submit = vi.fn();
    const { user } = renderWithApp(<Form onSubmit={submit} />);
    await user.type(field(), 'Méxi');
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    const match = within(screen.getByRole('listbox')).getByRole('option', { name: 'México' });
    expect(match.getAttribute('data-combobox-selected')).toBe('true');

    await user.keyboard('{Enter}');

    expect(field()).toHaveProperty('value', 'México');
    expect(submit).not.toHaveBeenCalled();
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it("takes Enter once when Mantine picks it itself (letters typed at a person's pace)", async () => {
    const submit = vi.fn();
    const change = vi.fn();
    const { user } = renderWithApp(<Form onSubmit={submit} onChange={change} />);
    await user.type(field(), 'P');
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    await user.type(field(), 'erú');

    await user.keyboard('{Enter}');

    expect(field()).toHaveProperty('value', 'Perú');
    expect(change.mock.calls).toEqual([['Perú']]);
    expect(submit).not.toHaveBeenCalled();
  });

  // Android's on-screen keyboards send Enter with an empty `code`, which Mantine's own handler does not recognise
  it('takes the Enter of a phone keyboard, which carries no key code', async () => {
    const { user } = renderWithApp(<Form onSubmit={vi.fn()} />);
    await user.type(field(), 'Colom');
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));

    fireEvent.keyDown(field(), { key: 'Enter', code: '', keyCode: 13 });
    await act(() => Promise.resolve());

    expect(field()).toHaveProperty('value', 'Colombia');
  });

  it('picks nothing with Enter in a list opened without typing, and keeps the chosen country when it is picked again', async () => {
    const submit = vi.fn();
    const { user } = renderWithApp(<Form onSubmit={submit} />);
    await user.click(field());
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    await user.keyboard('{Enter}');
    expect(field()).toHaveProperty('value', '');
    expect(submit).not.toHaveBeenCalled();

    await user.type(field(), 'Ecua');
    await user.keyboard('{Enter}');
    expect(field()).toHaveProperty('value', 'Ecuador');
    await user.click(field());
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Ecuador' }));
    expect(field()).toHaveProperty('value', 'Ecuador');
  });

  it('sends the form with Enter once the list is closed', async () => {
    const submit = vi.fn();
    const { user } = renderWithApp(<Form onSubmit={submit} />);
    await user.type(field(), 'Argen');
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Argentina' }));
    expect(screen.queryByRole('listbox')).toBeNull();

    await user.keyboard('{Enter}');

    expect(submit).toHaveBeenCalledWith('Argentina');
  });

  it('takes Enter once: the chosen country is not dropped by a second pick', async () => {
    const submit = vi.fn();
    const { user } = renderWithApp(<Form onSubmit={submit} />);
    await user.type(field(), 'Chil');
    await user.keyboard('{Enter}');
    expect(field()).toHaveProperty('value', 'Chile');
    await user.keyboard('{Enter}');
    expect(submit).toHaveBeenCalledWith('Chile');
  });
});

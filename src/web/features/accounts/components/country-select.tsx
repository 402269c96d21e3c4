import { Select } from '@mantine/core';
import { type KeyboardEvent, useRef } from 'react';
import { countries } from '#shared/accounts/countries.ts';

const data = [...countries];

type Props = { value: string; onChange: (value: string) => void; onBlur?: () => void; error?: string };

/**
 * Enter in the open list picks the highlighted country (the first match as one types) and never sends the
 * form. Mantine alone loses the highlight when letters arrive faster than its timers run (a busy phone): a
 * timer set when the list opens resets the index it picks from, Enter passed through, and the form was sent
 * with no country while México was shown highlighted. Mantine also looks for `code === 'Enter'`, which Android's
 * on-screen keyboards leave empty; `key` is 'Enter' there too.
 */
export function CountrySelect({ value, onChange, onBlur, error }: Props) {
  const picked = useRef(false);

  const pickOnEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    const listId = event.currentTarget.getAttribute('aria-controls');
    const list = listId ? document.getElementById(listId) : null;
    if (!list) return; // closed: Enter sends the form as in any other field
    event.preventDefault();
    picked.current = false;
    // Mantine's own handler runs after this one and picks when its index is right; pick only when it did not
    queueMicrotask(() => {
      if (picked.current) return;
      // the highlighted match only: a list opened without typing highlights nothing, and Enter then picks nothing
      list.querySelector<HTMLElement>('[data-combobox-selected]')?.click();
    });
  };

  return (
    <Select
      label="País"
      withAsterisk
      searchable
      // typing a few letters and pressing Enter picks the first match
      selectFirstOptionOnChange
      // a required field: choosing the shown country again keeps it rather than emptying the field
      allowDeselect={false}
      placeholder="Elige tu país"
      nothingFoundMessage="Sin resultados"
      data={data}
      value={value || null}
      onChange={(next) => {
        picked.current = true;
        onChange(next ?? '');
      }}
      onKeyDown={pickOnEnter}
      onBlur={onBlur}
      error={error}
      autoComplete="off"
      comboboxProps={{ withinPortal: true }}
    />
  );
}

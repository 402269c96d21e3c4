// @vitest-environment jsdom
import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { ProcedureCard as ProcedureCardData } from '#shared/catalog/catalog.schemas.ts';
import { renderWithApp } from '#web/testing/render.tsx';
import { ProcedureCard } from './procedure-card.tsx';

const procedure: ProcedureCardData = {
  id: '0b7c2f6e-8a7d-4c1e-9f1a-2b3c4d5e6f70',
  name: 'Ovariohisterectomía en perra',
  detail: 'Esterilización',
  type: 'Premium',
  species: 'Perro',
  previewUrl: '/media/procedures/0b7c/preview.jpg',
  tags: [],
  isLocked: true,
};

describe('a catalogue card picture', () => {
  it('waits as an empty box while the page holds it back, then loads', async () => {
    function Page() {
      const [waits, setWaits] = useState(true);
      return (
        <>
          <button type="button" onClick={() => setWaits(false)}>
            soltar
          </button>
          <ProcedureCard procedure={procedure} pictureWaits={waits} />
        </>
      );
    }
    const { user } = renderWithApp(<Page />);
    expect(screen.queryByRole('img', { name: 'Vista previa de Ovariohisterectomía en perra' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'soltar' }));
    expect(screen.getByRole('img', { name: 'Vista previa de Ovariohisterectomía en perra' }).getAttribute('src')).toBe(procedure.previewUrl);
  });

  it('tells the page once its picture has loaded or failed', () => {
    const settled = vi.fn();
    renderWithApp(<ProcedureCard procedure={procedure} onPictureSettled={settled} />);
    const picture = screen.getByRole('img', { name: 'Vista previa de Ovariohisterectomía en perra' });
    fireEvent.load(picture);
    fireEvent.error(picture);
    expect(settled).toHaveBeenCalledTimes(2);
  });
});

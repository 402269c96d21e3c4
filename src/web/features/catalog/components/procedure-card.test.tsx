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
    expect(screen.getByRole('img', { name: 'Vista previa de Ovariohisterectomía en perra' }).getAttribute('src')).toBe(
      procedure.previewUrl,
    );
  });

  it('tells the page once its picture has loaded or failed', () => {
    const settled = vi.fn();
    renderWithApp(<ProcedureCard procedure={procedure} onPictureSettled={settled} />);
    const picture = screen.getByRole('img', { name: 'Vista previa de Ovariohisterectomía en perra' });
    fireEvent.load(picture);
    fireEvent.error(picture);
    expect(settled).toHaveBeenCalledTimes(2);
  });

  it("offers the picture's narrower copies with the catalogue grid's sizes, the original staying the fallback", () => {
    renderWithApp(<ProcedureCard procedure={procedure} eager />);
    const picture = screen.getByRole('img', { name: 'Vista previa de Ovariohisterectomía en perra' });
    expect(picture.getAttribute('src')).toBe(procedure.previewUrl);
    expect(picture.getAttribute('srcset')).toBe(
      '/media/procedures/0b7c/preview.jpg?w=360 360w, /media/procedures/0b7c/preview.jpg?w=480 480w, ' +
        '/media/procedures/0b7c/preview.jpg?w=720 720w, /media/procedures/0b7c/preview.jpg?w=960 960w',
    );
    expect(picture.getAttribute('sizes')).toBe(
      '(min-width: 82.5em) 326px, (min-width: 75em) calc((100vw - 344px) / 3), (min-width: 62em) calc((100vw - 324px) / 2), ' +
        '(min-width: 48em) calc((100vw - 52px) / 2), calc(100vw - 32px)',
    );
    expect(picture.getAttribute('loading')).toBe('eager');
  });

  it("takes another grid's sizes, and offers no copies of a picture that has none", () => {
    const { unmount } = renderWithApp(<ProcedureCard procedure={procedure} sizes="(min-width: 48em) 300px, 100vw" />);
    expect(screen.getByRole('img').getAttribute('sizes')).toBe('(min-width: 48em) 300px, 100vw');
    unmount();
    renderWithApp(<ProcedureCard procedure={{ ...procedure, previewUrl: 'https://example.com/x.gif' }} />);
    const picture = screen.getByRole('img');
    expect(picture.getAttribute('srcset')).toBeNull();
    expect(picture.getAttribute('sizes')).toBeNull();
  });
});

// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '#web/lib/api-client.ts';
import { renderWithApp } from '#web/testing/render.tsx';
import { useErrorModal } from './error-modal.tsx';

function Trigger() {
  const { showError, showAppError } = useErrorModal();
  return (
    <>
      <button type="button" onClick={() => showError({ title: 'Aviso', message: 'No se pudo guardar.' })}>
        con título
      </button>
      <button
        type="button"
        onClick={() => showAppError(new ApiError(503, { code: 'INTERNAL', message: 'Sin conexión.' }))}
      >
        sin conexión
      </button>
    </>
  );
}

describe('the error modal', () => {
  it('opens as a modal dialog named by its title, with the message, and Aceptar closes it', async () => {
    const { user } = renderWithApp(<Trigger />);
    // nothing is shown before an error
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'con título' }));
    const dialog = await screen.findByRole('dialog', { name: 'Aviso' });
    expect(dialog).toHaveProperty('open', true);
    expect(within(dialog).getByText('No se pudo guardar.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Aceptar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('follows the browser closing it (Escape), and opens again for the next error', async () => {
    const { user } = renderWithApp(<Trigger />);
    await user.click(screen.getByRole('button', { name: 'con título' }));
    const dialog = (await screen.findByRole('dialog', { name: 'Aviso' })) as HTMLDialogElement;
    act(() => dialog.close());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'con título' }));
    expect(await screen.findByRole('dialog', { name: 'Aviso' })).toHaveProperty('open', true);
  });

  it("shows an API error's own text", async () => {
    const { user } = renderWithApp(<Trigger />);
    await user.click(screen.getByRole('button', { name: 'sin conexión' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Sin conexión.');
  });
});

// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messages } from '#shared/messages.ts';
import { href, paths } from '#web/paths.ts';
import { AdminTagFormPage } from '#web/routes/catalog/admin-tag-form.tsx';
import { errorAnswer, renderWithApp, stubApi } from '#web/testing/render.tsx';

// the tag form is the smallest record form: it shows the shared save / delete / cancel flow on its own
const list = { [paths.adminTags]: <h1>Lista de etiquetas</h1> };
const tagId = '0b5f6c1e-2d3a-4b5c-8d9e-0f1a2b3c4d5e';

describe('the console record form', () => {
  it('shows the Spanish message on an empty required field and sends nothing', async () => {
    const calls = stubApi({});
    const { user } = renderWithApp(<AdminTagFormPage />, { path: paths.adminTag, url: href.adminTag(), routes: list });
    await user.click(await screen.findByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText(messages.requiredDot)).toBeTruthy();
    expect(await screen.findByText('Revisa los campos marcados.')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('saves a new record under an id made in the browser, says so and returns to the list', async () => {
    const calls = stubApi({ 'PUT /api/admin/tags/*': ({ body }) => ({ id: 'x', ...(body as object) }) });
    const { user } = renderWithApp(<AdminTagFormPage />, { path: paths.adminTag, url: href.adminTag(), routes: list });
    await user.type(await screen.findByRole('textbox', { name: /Nombre/ }), 'Oftalmología');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByRole('heading', { name: 'Lista de etiquetas' })).toBeTruthy();
    expect(screen.getByText('Los cambios se guardaron correctamente.')).toBeTruthy();
    const puts = calls.filter((call) => call.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0]!.path).toMatch(/^\/api\/admin\/tags\/[0-9a-f-]{36}$/);
    expect(puts[0]!.body).toEqual({ name: 'Oftalmología' });
  });

  it("puts the server's field message on the field and stays on the form", async () => {
    stubApi({
      'PUT /api/admin/tags/*': () =>
        errorAnswer(400, {
          code: 'VALIDATION',
          message: 'Revisa los campos marcados.',
          fields: { name: 'Ya existe una etiqueta con ese nombre.' },
        }),
    });
    const { user } = renderWithApp(<AdminTagFormPage />, { path: paths.adminTag, url: href.adminTag(), routes: list });
    await user.type(await screen.findByRole('textbox', { name: /Nombre/ }), 'Ortopedia');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Ya existe una etiqueta con ese nombre.')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Lista de etiquetas' })).toBeNull();
  });

  it('loads a record, asks before deleting it and deletes it only on Continuar', async () => {
    const calls = stubApi({
      [`GET /api/admin/tags/${tagId}`]: () => ({ id: tagId, name: 'Ortopedia' }),
      [`DELETE /api/admin/tags/${tagId}`]: () => ({ ok: true }),
    });
    const { user } = renderWithApp(<AdminTagFormPage />, {
      path: paths.adminTag,
      url: href.adminTag(tagId),
      routes: list,
    });
    expect(((await screen.findByRole('textbox', { name: /Nombre/ })) as HTMLInputElement).value).toBe('Ortopedia');

    await user.click(screen.getByRole('button', { name: 'Eliminar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Eliminar' });
    expect(within(dialog).getByText(messages.deleteConfirmation)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Eliminar' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Eliminar' })).getByRole('button', { name: 'Continuar' }),
    );
    expect(await screen.findByRole('heading', { name: 'Lista de etiquetas' })).toBeTruthy();
    expect(calls.filter((call) => call.method === 'DELETE')).toEqual([
      { method: 'DELETE', path: `/api/admin/tags/${tagId}`, body: undefined },
    ]);
  });
});

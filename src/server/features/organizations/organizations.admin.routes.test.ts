import { describe, expect, it } from 'vitest';
import { useConsoleTestApp } from '#server/testing/console-test-app.ts';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { organizations } from '#server/db/schema/index.ts';
import { uploadSample } from '#server/features/uploads/uploads.testing.ts';

const { state, call } = useConsoleTestApp();

describe('organizations', () => {
  it('names the missing title, logo, promo image and promo link', async () => {
    const response = await call('PUT', `/api/admin/organizations/${randomUUID()}`, {
      title: '',
      type: 'Empresa',
      logoImage: '',
      promoImage: null,
      promoLink: '',
    });
    expect(response.json().fields).toEqual({
      title: 'Este campo es requerido.',
      logoImage: 'Se requiere la imagen del logo.',
      promoImage: 'Se requiere la imagen del promo.',
      promoLink: 'Este campo es requerido.',
    });
    const noType = await call('PUT', `/api/admin/organizations/${randomUUID()}`, {
      title: 'X',
      type: '',
      logoImage: 'x',
      promoImage: null,
      promoLink: null,
    });
    expect(noType.json().fields.type).toBe('Este campo es requerido.');
  });

  it('type Universidad clears the promo image and link and deletes the promo file', async () => {
    const id = randomUUID();
    const company = {
      title: 'Laboratorio Vet',
      type: 'Empresa',
      logoImage: await uploadSample(state.t, state.admin.cookie, 'organization-logo', 'logo.png', id),
      promoImage: await uploadSample(state.t, state.admin.cookie, 'organization-promo', 'promo.png', id),
      promoLink: 'labvet.com/promo',
    };
    const saved = await call('PUT', `/api/admin/organizations/${id}`, company);
    expect(saved.json()).toMatchObject({ promoLink: 'https://labvet.com/promo', promoImage: company.promoImage });
    const university = await call('PUT', `/api/admin/organizations/${id}`, { ...company, type: 'Universidad' });
    expect(university.json()).toMatchObject({ type: 'Universidad', promoImage: null, promoLink: null });
    expect(await state.t.storage.stat(company.promoImage)).toBeNull();
    expect(await state.t.storage.stat(company.logoImage)).not.toBeNull();
    const [row] = await state.t.db.select().from(organizations).where(eq(organizations.id, id));
    expect(row).toMatchObject({ promoImage: null, promoLink: null });
  });
});

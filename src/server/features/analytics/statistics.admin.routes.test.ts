import { describe, expect, it } from 'vitest';
import { createTestApp } from '#server/testing/test-app.ts';
import { createUser, signedInAs } from '#server/testing/factories.ts';
import { analyticsEvents } from '#server/db/schema/index.ts';

describe('statistics', () => {
  it('counts users by type with Premium monthly = Premium − annual, events by label and type, and top countries', async () => {
    const fresh = await createTestApp();
    try {
      const boss = await signedInAs(fresh, { type: 'Admin', country: 'México' });
      await createUser(fresh, { type: 'Premium', annualPlan: true, country: 'México' });
      await createUser(fresh, { type: 'Premium', country: 'Perú' });
      await createUser(fresh, { type: 'Premium', country: 'Perú' });
      await createUser(fresh, { type: 'Gratis', country: 'Chile' });
      await fresh.db.insert(analyticsEvents).values([
        { category: 'VIDEOS', label: 'Cistotomía', userType: 'Gest', createdAt: new Date('2026-10-01T10:00:00Z') },
        { category: 'VIDEOS', label: 'Cistotomía', userType: 'Premium', createdAt: new Date('2026-10-02T10:00:00Z') },
        { category: 'VIDEOS', label: 'Enucleación', userType: 'Gratis', createdAt: new Date('2026-11-02T10:00:00Z') },
        {
          category: 'FASCICULOS',
          label: 'Cistotomía',
          userType: 'Premium',
          createdAt: new Date('2026-10-02T10:00:00Z'),
        },
      ]);
      const get = async (query = '') =>
        (await fresh.app.inject({ url: `/api/admin/statistics${query}`, headers: { cookie: boss.cookie } })).json();
      const all = await get();
      expect(all.users).toEqual({
        total: 5,
        gratis: 1,
        premium: 3,
        premiumAnnual: 1,
        premiumMonthly: 2,
        legacy: 0,
        admin: 1,
      });
      expect(all.tables.VIDEOS).toEqual([
        { label: 'Cistotomía', total: 2, byUserType: { Gest: 1, Premium: 1 } },
        { label: 'Enucleación', total: 1, byUserType: { Gratis: 1 } },
      ]);
      expect(all.tables.DIPLOMADO_PREVIEW_PAGE).toEqual([]);
      expect(all.topCountries).toEqual([
        { country: 'México', users: 2 },
        { country: 'Perú', users: 2 },
        { country: 'Chile', users: 1 },
      ]);
      const october = await get('?from=2026-10-02&to=2026-10-31&category=VIDEOS');
      expect(october.tables.VIDEOS).toEqual([{ label: 'Cistotomía', total: 1, byUserType: { Premium: 1 } }]);
      expect(october.tables.FASCICULOS).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});

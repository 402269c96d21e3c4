import { describe, expect, it } from 'vitest';
import { useConsoleTestApp } from '#server/testing/console-test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { planPrices } from '#server/db/schema/index.ts';

const { state, call } = useConsoleTestApp({ type: 'Admin', email: 'precios@example.com', name: 'Precios' });

describe('the plans prices in pesos (console)', () => {
  it('has none until the Admin sets them, then keeps both and answers them as set', async () => {
    expect((await call('GET', '/api/admin/prices/mxn', undefined, state.admin.cookie)).json()).toEqual({
      monthly: '',
      annual: '',
    });
    const saved = await call('PUT', '/api/admin/prices/mxn', { monthly: '199', annual: '1999.5' }, state.admin.cookie);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ monthly: '199.00', annual: '1999.50' });
    const rows = await state.t.db.select().from(planPrices);
    expect(rows.map((row) => [row.plan, row.currency, row.amountCents]).sort()).toEqual([
      ['annual', 'MXN', 199_950],
      ['monthly', 'MXN', 19_900],
    ]);
  });

  it('changes a price and removes one left empty (that plan is no longer sold in pesos)', async () => {
    await call('PUT', '/api/admin/prices/mxn', { monthly: '199.00', annual: '1999.00' }, state.admin.cookie);
    const changed = await call('PUT', '/api/admin/prices/mxn', { monthly: '249.00', annual: '' }, state.admin.cookie);
    expect(changed.json()).toEqual({ monthly: '249.00', annual: '' });
  });

  it('refuses a price that is not a positive number with two decimals, with the spec message', async () => {
    for (const monthly of ['abc', '1.999', '0', '-5']) {
      const refused = await call('PUT', '/api/admin/prices/mxn', { monthly, annual: '' }, state.admin.cookie);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().fields.monthly).toBe('Debe ser un número válido redondeado a 2 dígitos');
    }
  });

  it('is only for the Admin', async () => {
    const member = await signedInAs(state.t, { type: 'Premium' });
    expect((await call('GET', '/api/admin/prices/mxn', undefined, member.cookie)).statusCode).toBe(403);
    expect(
      (await call('PUT', '/api/admin/prices/mxn', { monthly: '1.00', annual: '' }, member.cookie)).statusCode,
    ).toBe(403);
    expect((await call('GET', '/api/admin/prices/mxn', undefined, null)).statusCode).toBe(401);
  });
});

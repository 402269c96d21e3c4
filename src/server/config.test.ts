import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

// a session secret keeps loadConfig from writing one into DATA_DIR
const base = { SESSION_SECRET: 'x'.repeat(32), DATA_DIR: '/nonexistent' };
const paypal = {
  PAYPAL_CLIENT_ID: 'id',
  PAYPAL_CLIENT_SECRET: 'secret',
  PAYPAL_PLAN_MONTHLY: 'P-1',
  PAYPAL_PLAN_ANNUAL: 'P-2',
  PAYPAL_WEBHOOK_ID: 'WH-1',
};

describe('PAYMENTS_PROVIDER', () => {
  it('defaults to the simulated provider for a demo start (npm start, tests)', () => {
    expect(loadConfig(base).paymentsProvider).toBe('simulado');
    expect(loadConfig({ ...base, SEED_DEMO: '1' }).paymentsProvider).toBe('simulado');
  });

  it.each([
    ['NODE_ENV=production', { NODE_ENV: 'production' }],
    ['NODE_ENV=production even with demo content', { NODE_ENV: 'production', SEED_DEMO: '1' }],
    ['SEED_DEMO=0', { SEED_DEMO: '0' }],
    ['a PostgreSQL database without demo content', { DATABASE_URL: 'postgres://db/cxvet' }],
  ])('must be set on %s: the start is refused naming the variable', (_case, env) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(/PAYMENTS_PROVIDER/);
  });

  it('is taken as chosen on a production start', () => {
    expect(loadConfig({ ...base, NODE_ENV: 'production', PAYMENTS_PROVIDER: 'simulado' }).paymentsProvider).toBe('simulado');
    const config = loadConfig({ ...base, NODE_ENV: 'production', PAYMENTS_PROVIDER: 'paypal', ...paypal });
    expect(config.paymentsProvider).toBe('paypal');
    expect(config.paypal).toMatchObject({ clientId: 'id', planIds: { monthly: 'P-1', annual: 'P-2' }, webhookId: 'WH-1' });
  });

  it('refuses PayPal without its variables', () => {
    expect(() => loadConfig({ ...base, PAYMENTS_PROVIDER: 'paypal' })).toThrow(/PAYPAL_CLIENT_ID/);
  });
});

import { describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { loadCommandConfig, loadConfig } from './config.ts';

const ltiPem = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ format: 'pem', type: 'pkcs8' })
  .toString();
// a session secret and the signing keys keep loadConfig from writing them into DATA_DIR
const base = {
  SESSION_SECRET: 'x'.repeat(32),
  CREDENTIALS_SIGNING_KEY: '07'.repeat(32),
  LTI_SIGNING_KEY: ltiPem,
  DATA_DIR: '/nonexistent',
};
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
    const live = { PAYPAL_API_URL: 'https://api-m.paypal.com' };
    const config = loadConfig({ ...base, NODE_ENV: 'production', PAYMENTS_PROVIDER: 'paypal', ...paypal, ...live });
    expect(config.paymentsProvider).toBe('paypal');
    expect(config.paypal).toMatchObject({
      apiUrl: 'https://api-m.paypal.com',
      clientId: 'id',
      planIds: { monthly: 'P-1', annual: 'P-2' },
      webhookId: 'WH-1',
    });
  });

  it('refuses the simulated provider in production unless ALLOW_SIMULATED_PAYMENTS_IN_PRODUCTION=1 (a staging site)', () => {
    const production = { ...base, NODE_ENV: 'production', PAYMENTS_PROVIDER: 'simulado' };
    expect(() => loadConfig(production)).toThrow(/ALLOW_SIMULATED_PAYMENTS_IN_PRODUCTION=1/);
    expect(() => loadConfig({ ...production, ALLOW_SIMULATED_PAYMENTS_IN_PRODUCTION: '0' })).toThrow(
      /PAYMENTS_PROVIDER=simulado/,
    );
    expect(loadConfig({ ...production, ALLOW_SIMULATED_PAYMENTS_IN_PRODUCTION: '1' }).paymentsProvider).toBe(
      'simulado',
    );
    expect(loadConfig({ ...base, PAYMENTS_PROVIDER: 'simulado', SEED_DEMO: '0' }).paymentsProvider).toBe('simulado');
  });

  it('requires PAYPAL_API_URL in production, and defaults to the sandbox elsewhere', () => {
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', PAYMENTS_PROVIDER: 'paypal', ...paypal })).toThrow(
      /PAYPAL_API_URL/,
    );
    expect(loadConfig({ ...base, PAYMENTS_PROVIDER: 'paypal', ...paypal }).paypal?.apiUrl).toBe(
      'https://api-m.sandbox.paypal.com',
    );
  });

  it('refuses PayPal without its variables', () => {
    expect(() => loadConfig({ ...base, PAYMENTS_PROVIDER: 'paypal' })).toThrow(/PAYPAL_CLIENT_ID/);
  });
});

describe('PAYMENTS_PROVIDERS', () => {
  const mercadopago = { MERCADOPAGO_ACCESS_TOKEN: 'APP_USR-1', MERCADOPAGO_WEBHOOK_SECRET: 'secreto' };

  it('lists several providers at once; the dollar flows go through PayPal', () => {
    const config = loadConfig({ ...base, PAYMENTS_PROVIDERS: 'paypal, mercadopago', ...paypal, ...mercadopago });
    expect(config.paymentsProviders).toEqual(['paypal', 'mercadopago']);
    expect(config.paymentsProvider).toBe('paypal');
    expect(config.mercadopago).toEqual({
      apiUrl: 'https://api.mercadopago.com',
      accessToken: 'APP_USR-1',
      webhookSecret: 'secreto',
    });
  });

  it('keeps the single PAYMENTS_PROVIDER working, and refuses one that contradicts the list', () => {
    expect(loadConfig({ ...base, PAYMENTS_PROVIDER: 'paypal', ...paypal }).paymentsProviders).toEqual(['paypal']);
    expect(loadConfig(base).paymentsProviders).toEqual(['simulado']);
    expect(loadConfig(base).mercadopago).toBeUndefined();
    expect(() =>
      loadConfig({ ...base, PAYMENTS_PROVIDER: 'simulado', PAYMENTS_PROVIDERS: 'paypal', ...paypal }),
    ).toThrow(/PAYMENTS_PROVIDER=simulado no está en PAYMENTS_PROVIDERS=paypal/);
  });

  it('refuses an unknown or empty list by name', () => {
    expect(() => loadConfig({ ...base, PAYMENTS_PROVIDERS: 'paypal,stripe', ...paypal })).toThrow(/PAYMENTS_PROVIDERS/);
    expect(() => loadConfig({ ...base, PAYMENTS_PROVIDERS: ' , ' })).toThrow(/PAYMENTS_PROVIDERS/);
  });

  it('refuses the simulated provider in the list in production, and beside a real provider anywhere', () => {
    const production = { ...base, NODE_ENV: 'production', ...paypal, PAYPAL_API_URL: 'https://api-m.paypal.com' };
    expect(() => loadConfig({ ...production, PAYMENTS_PROVIDERS: 'simulado' })).toThrow(
      /ALLOW_SIMULATED_PAYMENTS_IN_PRODUCTION=1/,
    );
    expect(() => loadConfig({ ...production, PAYMENTS_PROVIDERS: 'paypal,simulado' })).toThrow(
      /ALLOW_SIMULATED_PAYMENTS_IN_PRODUCTION=1/,
    );
    expect(() => loadConfig({ ...base, PAYMENTS_PROVIDERS: 'simulado,mercadopago', ...mercadopago })).toThrow(
      /simulado no se combina/,
    );
  });

  it("needs PayPal beside Mercado Pago while the dollar flows are PayPal's", () => {
    expect(() => loadConfig({ ...base, PAYMENTS_PROVIDERS: 'mercadopago', ...mercadopago })).toThrow(
      /PAYMENTS_PROVIDERS=mercadopago necesita también paypal/,
    );
  });

  it('refuses Mercado Pago without its token and secret, and without MERCADOPAGO_API_URL in production', () => {
    const list = { ...base, PAYMENTS_PROVIDERS: 'paypal,mercadopago', ...paypal };
    expect(() => loadConfig(list)).toThrow(/MERCADOPAGO_ACCESS_TOKEN, MERCADOPAGO_WEBHOOK_SECRET/);
    expect(() => loadConfig({ ...list, MERCADOPAGO_ACCESS_TOKEN: 'APP_USR-1' })).toThrow(/MERCADOPAGO_WEBHOOK_SECRET/);
    const production = { ...list, ...mercadopago, NODE_ENV: 'production', PAYPAL_API_URL: 'https://api-m.paypal.com' };
    expect(() => loadConfig(production)).toThrow(/MERCADOPAGO_API_URL/);
    expect(loadConfig({ ...production, MERCADOPAGO_API_URL: 'https://api.mercadopago.com/' }).mercadopago?.apiUrl).toBe(
      'https://api.mercadopago.com',
    );
  });

  it('is neither needed nor checked by the commands that take no payments', () => {
    const env = { ...base, DATABASE_URL: 'postgres://x@localhost/db', PAYMENTS_PROVIDERS: 'mercadopago' };
    expect(loadCommandConfig(env).mercadopago).toBeUndefined();
  });
});

describe('BACKUP_*', () => {
  it('backs the embedded database up daily into DATA_DIR/backups, keeping 7, by default', () => {
    expect(loadConfig(base).backup).toEqual({ dir: '/nonexistent/backups', schedule: 'daily', keep: 7 });
  });

  it('schedules nothing on PostgreSQL unless asked (its operator backs it up)', () => {
    const env = { ...base, DATABASE_URL: 'postgres://x@localhost/db', PAYMENTS_PROVIDER: 'simulado' };
    expect(loadConfig(env).backup.schedule).toBe('off');
    expect(loadConfig({ ...env, BACKUP_SCHEDULE: 'daily' }).backup.schedule).toBe('daily');
  });

  it('takes the folder, schedule and count given, and refuses bad values by name', () => {
    expect(
      loadConfig({ ...base, BACKUP_DIR: '/srv/respaldos', BACKUP_SCHEDULE: 'hourly', BACKUP_KEEP: '30' }).backup,
    ).toEqual({
      dir: '/srv/respaldos',
      schedule: 'hourly',
      keep: 30,
    });
    expect(() => loadConfig({ ...base, BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP/);
    expect(() => loadConfig({ ...base, BACKUP_SCHEDULE: 'monthly' })).toThrow(/BACKUP_SCHEDULE/);
  });
});

describe('STORAGE=s3', () => {
  const s3 = {
    STORAGE: 's3',
    S3_BUCKET: 'cxvet',
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'id',
    S3_SECRET_ACCESS_KEY: 'secret',
  };
  const production = {
    NODE_ENV: 'production',
    PAYMENTS_PROVIDER: 'simulado',
    ALLOW_SIMULATED_PAYMENTS_IN_PRODUCTION: '1',
  };

  it.each(['S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const)(
    'refuses a production start without %s, naming it',
    (name) => {
      const env: Record<string, string> = { ...base, ...production, ...s3 };
      delete env[name];
      expect(() => loadConfig(env)).toThrow(new RegExp(`STORAGE=s3 necesita ${name}`));
    },
  );

  it('names every missing variable at once, outside production too', () => {
    expect(() => loadConfig({ ...base, STORAGE: 's3' })).toThrow(
      'STORAGE=s3 necesita S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY',
    );
  });

  it('uses AWS itself without S3_ENDPOINT, and path-style addressing with an endpoint unless told otherwise', () => {
    expect(loadConfig({ ...base, ...production, ...s3 }).s3).toMatchObject({
      endpoint: undefined,
      forcePathStyle: false,
      bucket: 'cxvet',
    });
    expect(loadConfig({ ...base, ...s3, S3_ENDPOINT: 'http://minio:9000' }).s3).toMatchObject({
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
    });
    expect(
      loadConfig({ ...base, ...s3, S3_ENDPOINT: 'https://x.r2.example', S3_FORCE_PATH_STYLE: '0' }).s3?.forcePathStyle,
    ).toBe(false);
  });

  it('signs private URLs for 5 minutes unless S3_SIGNED_URL_SECONDS says otherwise, and refuses a lifetime S3 cannot sign', () => {
    expect(loadConfig({ ...base, ...s3 }).signedUrlSeconds).toBe(300);
    expect(loadConfig({ ...base, ...s3, S3_SIGNED_URL_SECONDS: '60' }).signedUrlSeconds).toBe(60);
    for (const bad of ['0', '-5', '1.5', 'cinco', '604801']) {
      expect(() => loadConfig({ ...base, ...s3, S3_SIGNED_URL_SECONDS: bad })).toThrow(/S3_SIGNED_URL_SECONDS/);
    }
  });

  it('leaves the local store untouched by default (npm start)', () => {
    const config = loadConfig(base);
    expect(config.storage).toBe('local');
    expect(config.s3).toBeUndefined();
  });
});

describe('MEDIA_ACCEL_REDIRECT', () => {
  it('is off unless set, and off when empty', () => {
    expect(loadConfig(base).mediaAccelRedirect).toBeUndefined();
    expect(loadConfig({ ...base, MEDIA_ACCEL_REDIRECT: '' }).mediaAccelRedirect).toBeUndefined();
  });

  it('takes an internal path prefix that starts and ends with a slash', () => {
    expect(loadConfig({ ...base, MEDIA_ACCEL_REDIRECT: '/_media-interno/' }).mediaAccelRedirect).toBe(
      '/_media-interno/',
    );
    expect(loadConfig({ ...base, MEDIA_ACCEL_REDIRECT: '/interno/subidas/' }).mediaAccelRedirect).toBe(
      '/interno/subidas/',
    );
  });

  it.each([
    '_media-interno/',
    '/_media-interno',
    '/',
    '/../etc/',
    '/./x/',
    '/a b/',
    '/x?y=1/',
    'http://nginx/x/',
    '/media/',
    '/api/x/',
    '/assets/',
  ])('refuses %j, naming the variable', (prefix) => {
    expect(() => loadConfig({ ...base, MEDIA_ACCEL_REDIRECT: prefix })).toThrow(/MEDIA_ACCEL_REDIRECT/);
  });

  it('refuses it with STORAGE=s3, whose files are served from the bucket', () => {
    const s3 = {
      STORAGE: 's3',
      S3_BUCKET: 'cxvet',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(() => loadConfig({ ...base, ...s3, MEDIA_ACCEL_REDIRECT: '/_media-interno/' })).toThrow(
      /MEDIA_ACCEL_REDIRECT es para STORAGE=local/,
    );
  });
});

describe('SEED_DEMO', () => {
  it('seeds the demo by default only on a development start on the embedded database', () => {
    expect(loadConfig(base).seedDemo).toBe(true);
    expect(
      loadConfig({ ...base, DATABASE_URL: 'postgres://x@localhost/db', PAYMENTS_PROVIDER: 'simulado' }).seedDemo,
    ).toBe(false);
  });

  it('is off on a production start on the embedded database unless SEED_DEMO=1 says so', () => {
    const production = {
      ...base,
      NODE_ENV: 'production',
      PAYMENTS_PROVIDER: 'simulado',
      ALLOW_SIMULATED_PAYMENTS_IN_PRODUCTION: '1',
    };
    expect(loadConfig(production).seedDemo).toBe(false);
    expect(loadConfig({ ...production, SEED_DEMO: '1' }).seedDemo).toBe(true);
  });
});

describe('loadCommandConfig (backup, restore, migrate, seed)', () => {
  it('needs no payment settings, in production or on PostgreSQL, and ignores broken ones', () => {
    const postgres = {
      ...base,
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://x@localhost/db',
      DELETION_LEDGER_PATH: '/srv/ledger.jsonl',
    };
    expect(() => loadConfig(postgres)).toThrow(/PAYMENTS_PROVIDER/);
    expect(loadCommandConfig(postgres).databaseUrl).toBe('postgres://x@localhost/db');
    expect(loadCommandConfig({ ...postgres, PAYMENTS_PROVIDER: 'paypal' }).paypal).toBeUndefined();
  });

  it('still refuses any other bad setting by name', () => {
    expect(() => loadCommandConfig({ ...base, BACKUP_KEEP: '0' })).toThrow(/^Configuración no válida: BACKUP_KEEP/);
  });
});

describe('DELETION_LEDGER_PATH', () => {
  const postgres = {
    ...base,
    DATA_DIR: '/srv/cxvet/datos',
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://x@localhost/db',
    PAYMENTS_PROVIDER: 'simulado',
    ALLOW_SIMULATED_PAYMENTS_IN_PRODUCTION: '1',
  };

  it('defaults to the file beside the backups on the embedded database and in development', () => {
    expect(loadConfig(base).deletionLedgerPath).toBeUndefined();
    expect(loadConfig({ ...base, DELETION_LEDGER_PATH: '/srv/libro.jsonl' }).deletionLedgerPath).toBe(
      '/srv/libro.jsonl',
    );
  });

  it('is required in production on PostgreSQL, and refused inside DATA_DIR, which a restore replaces', () => {
    expect(() => loadConfig(postgres)).toThrow(/^DELETION_LEDGER_PATH no está definido/);
    expect(() => loadConfig({ ...postgres, DELETION_LEDGER_PATH: '/srv/cxvet/datos/libro.jsonl' })).toThrow(
      /DELETION_LEDGER_PATH .* está dentro de DATA_DIR/,
    );
    expect(loadConfig({ ...postgres, DELETION_LEDGER_PATH: '/srv/cxvet/libro.jsonl' }).deletionLedgerPath).toBe(
      '/srv/cxvet/libro.jsonl',
    );
  });

  it('is not needed with STORAGE=s3: the ledger is in the bucket', () => {
    const s3 = { STORAGE: 's3', S3_BUCKET: 'b', S3_REGION: 'r', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' };
    expect(loadConfig({ ...postgres, ...s3 }).deletionLedgerPath).toBeUndefined();
  });
});

describe('SHUTDOWN_DRAIN_SECONDS', () => {
  it('drains 5 s on PostgreSQL (behind a load balancer) and not at all on the embedded database, unless set', () => {
    const postgres = { ...base, DATABASE_URL: 'postgres://x@localhost/db', PAYMENTS_PROVIDER: 'simulado' };
    expect(loadConfig(postgres).shutdownDrainMs).toBe(5000);
    expect(loadConfig(base).shutdownDrainMs).toBe(0);
    expect(loadConfig({ ...base, SHUTDOWN_DRAIN_SECONDS: '2.5' }).shutdownDrainMs).toBe(2500);
    expect(() => loadConfig({ ...base, SHUTDOWN_DRAIN_SECONDS: '-1' })).toThrow(/SHUTDOWN_DRAIN_SECONDS/);
  });
});

describe('the PAYMENTS_PROVIDER refusal', () => {
  it('names the one reason that applies, never a setting the operator did not write', () => {
    const message = (env: Record<string, string>) => {
      try {
        loadConfig({ ...base, ...env });
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    };
    const postgres = message({ DATABASE_URL: 'postgres://x@localhost/db' });
    expect(postgres).toMatch(/^PAYMENTS_PROVIDER no está definido: con PostgreSQL \(DATABASE_URL\)/);
    expect(postgres).not.toContain('SEED_DEMO=0');
    expect(message({ NODE_ENV: 'production' })).toMatch(/en producción \(NODE_ENV=production\) elige/);
    expect(message({ SEED_DEMO: '0' })).toMatch(/sin datos de demostración \(SEED_DEMO=0\) elige/);
  });
});

describe('FACTURAPI_KEY', () => {
  it('is optional: without it nothing is invoiced', () => {
    expect(loadConfig(base).facturapi).toBeUndefined();
  });

  it('talks to Facturapi v2 unless FACTURAPI_API_URL names another (the tests’ fake)', () => {
    expect(loadConfig({ ...base, FACTURAPI_KEY: 'sk_test_1' }).facturapi).toEqual({
      apiUrl: 'https://www.facturapi.io/v2',
      apiKey: 'sk_test_1',
    });
    expect(
      loadConfig({ ...base, FACTURAPI_KEY: 'sk_test_1', FACTURAPI_API_URL: 'http://127.0.0.1:9/v2/' }).facturapi,
    ).toEqual({ apiUrl: 'http://127.0.0.1:9/v2', apiKey: 'sk_test_1' });
  });
});

describe('sign-up limit', () => {
  it('follows SIGN_IN_LIMIT_PER_MINUTE: twice it per 10 minutes, 20 by default', () => {
    expect(loadConfig(base).signUpsPerTenMinutes).toBe(20);
    expect(loadConfig({ ...base, SIGN_IN_LIMIT_PER_MINUTE: '200' }).signUpsPerTenMinutes).toBe(400);
  });
});

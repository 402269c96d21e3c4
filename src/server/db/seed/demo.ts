import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { Database, Db } from '#server/db/client.ts';
import { procedures, users } from '#server/db/schema/index.ts';
import type { FileStorage } from '#server/services/storage.ts';
import type { AccountsService, UserRow } from '#server/features/accounts/accounts.service.ts';
import { demoAccounts, demoPassword, type DemoRole } from './demo-accounts.ts';
import { assetsDir, req, type DemoPart, type DemoPlan } from './demo-plan.ts';
import { planCatalogueDemo } from './demo-catalogue.ts';
import { planSiteDemo } from './demo-site.ts';
import { planClassroomsDemo } from './demo-classrooms.ts';
import { planDiplomasDemo } from './demo-diplomas.ts';
import { insertPaymentsDemo } from './demo-payments.ts';

// any fixed number, the same in every instance (the migrations use 731_017_001)
const demoSeedLockKey = 731_017_002;

/**
 * Fills an empty database with Spanish demo content and the demo accounts; false when it holds any procedure or
 * user. Instances starting together on one PostgreSQL take turns, so the demo is made exactly once.
 */
export async function seedDemo(deps: {
  database: Pick<Database, 'db' | 'exclusively'>;
  storage: FileStorage;
  accounts: AccountsService;
  queueLadders?: (keys: string[]) => Promise<void>;
}): Promise<boolean> {
  return deps.database.exclusively(demoSeedLockKey, () => seedEmptyDatabase({ ...deps, db: deps.database.db }));
}

async function seedEmptyDatabase(deps: {
  db: Db;
  storage: FileStorage;
  accounts: AccountsService;
  /** Queues HLS ladders (made later by the job runner, never during the start). */
  queueLadders?: (keys: string[]) => Promise<void>;
}): Promise<boolean> {
  const { db, storage, accounts } = deps;
  const [anyProcedure] = await db.select({ id: procedures.id }).from(procedures).limit(1);
  const [anyUser] = await db.select({ id: users.id }).from(users).limit(1);
  if (anyProcedure || anyUser) return false;

  const now = new Date();
  const ts = now.getTime();
  const files = new Map<string, string>(); // storage key -> asset file
  const store = (key: string, file: string) => {
    files.set(key, file);
    return key;
  };

  const plan: DemoPlan = { now, ts, store };
  const catalogue = planCatalogueDemo(plan);
  const site = planSiteDemo(plan);
  const { procedureId } = catalogue;
  const { companyId, universityId } = site;
  const parts: DemoPart[] = [
    catalogue,
    site,
    planClassroomsDemo(plan, { procedureId, companyId, universityId }),
    planDiplomasDemo(plan, { procedureId, companyId }),
    { insert: insertPaymentsDemo },
  ];

  // Files first: if copying fails nothing has been written to the database yet
  for (const [key, file] of files) await storage.put(key, createReadStream(assetsDir + file));
  for (const [key, text] of catalogue.captionFiles) await storage.put(key, Readable.from([Buffer.from(text, 'utf8')]));

  const created = new Map<DemoRole, UserRow>();
  try {
    for (const account of demoAccounts) {
      const row = await accounts.createAccount({
        name: account.name,
        email: account.email,
        password: demoPassword,
        values: account.values(now),
      });
      created.set(account.role, row);
    }
    const basic = req(created.get('basic'), 'basic account');
    const premium = req(created.get('premium'), 'premium account');
    const classroomAdmin = req(created.get('classroomAdmin'), 'aula administrator account');
    const diplomaAdmin = req(created.get('diplomaAdmin'), 'diploma administrator account');

    const people = { basic, premium, classroomAdmin, diplomaAdmin };
    await db.transaction(async (tx) => {
      for (const part of parts) await part.insert(tx, people);
    });
  } catch (error) {
    // leave the database empty so the next start tries again
    for (const row of created.values()) await accounts.deleteAccount(row.id).catch(() => {});
    for (const key of files.keys()) await storage.delete(key).catch(() => {});
    throw error;
  }
  // the newest procedure's two videos show the data-saver ladder; the others play their MP4 until an Admin asks
  const { newest } = catalogue;
  await deps.queueLadders?.([newest.demoVideo, newest.fullVideo]);
  return true;
}

import { and, asc, count, desc, eq, exists, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import {
  authAccounts,
  certificates,
  diplomaTransactions,
  organizations,
  paymentOrders,
  payments,
  paymentSubscriptions,
  publicUniversities,
  sessions,
  users,
} from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { errorMessages } from '#shared/error-messages.ts';
import {
  adminCreatedUserDefaults,
  adminUsersPageSize,
  type AdminUser,
  type AdminUserRow,
  type AdminUsersQuery,
} from '#shared/accounts/users.admin.schemas.ts';
import { manualSubscriptionId } from '#shared/membership/membership.rules.ts';
import type { Auth } from '#server/features/accounts/auth.ts';
import type { AccountsService, UserRow } from '#server/features/accounts/accounts.service.ts';
import { containsPattern } from '#server/db/search-sql.ts';
import { foldForSearch } from '#shared/text.ts';
import { messages } from '#shared/messages.ts';

type Input = {
  name: string;
  email: string;
  password?: string;
  phoneNumber: string;
  homeUniversity: string | null;
  organizationId: string | null;
};

const sortColumns = {
  name: users.name,
  email: users.email,
  phoneNumber: users.phoneNumber,
  type: users.type,
  createdAt: users.createdAt,
} as const;

const emailTaken = () => new AppError('EMAIL_TAKEN', { fields: { email: errorMessages.EMAIL_TAKEN.message } });

function toRow(user: UserRow): AdminUserRow {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    phoneNumber: user.phoneNumber,
    type: user.type,
    annualPlan: user.annualPlan,
    isManualPremium: user.subscriptionId === manualSubscriptionId,
    createdAt: user.createdAt.toISOString(),
  };
}

export function createAdminUsersService(deps: {
  db: Db;
  auth: Auth;
  accounts: AccountsService;
  /** Data-rights deletion: keeps payments and certificates without the identity. */
  anonymize: (userId: string, actorId: string) => Promise<unknown>;
  /** The shared deletion ledger, so a restore cannot bring the account back. */
  recordDeletion: (userId: string) => Promise<void>;
}) {
  const { db, auth, accounts } = deps;

  /** One page of users, searched, sorted and paged by the database. */
  async function list(query: AdminUsersQuery) {
    // deleted (anonymised) accounts are not people any more
    const conditions: SQL[] = [isNull(users.anonymizedAt)];
    if (query.q) {
      const pattern = containsPattern(foldForSearch(query.q));
      conditions.push(sql`${users.searchText} like ${pattern}`);
    }
    if (query.manualOnly) conditions.push(eq(users.subscriptionId, manualSubscriptionId));
    const where = conditions.length > 0 ? and(...conditions) : undefined;
    const column = sortColumns[query.sort];
    const [rows, [totalRow]] = await Promise.all([
      db
        .select()
        .from(users)
        .where(where)
        .orderBy(query.dir === 'asc' ? asc(column) : desc(column), asc(users.id))
        .limit(adminUsersPageSize)
        .offset((query.page - 1) * adminUsersPageSize),
      db.select({ total: count() }).from(users).where(where),
    ]);
    return { items: rows.map(toRow), total: totalRow?.total ?? 0, page: query.page, pageSize: adminUsersPageSize };
  }

  async function get(id: string): Promise<AdminUser> {
    const [user] = await db.select().from(users).where(eq(users.id, id));
    if (!user) throw new AppError('NOT_FOUND');
    return {
      ...toRow(user),
      homeUniversity: user.homeUniversity,
      organizationId: user.organizationId,
      country: user.country,
      city: user.city,
      paymentStatus: user.paymentStatus,
    };
  }

  async function assertUniversity(organizationId: string | null): Promise<void> {
    if (!organizationId) return;
    const [organization] = await db
      .select({ type: organizations.type })
      .from(organizations)
      .where(eq(organizations.id, organizationId));
    if (organization?.type !== 'Universidad') {
      throw new AppError('VALIDATION', { fields: { organizationId: messages.selectValue } });
    }
  }

  async function rememberUniversity(name: string | null): Promise<void> {
    if (name) await db.insert(publicUniversities).values({ name }).onConflictDoNothing();
  }

  /** Spec 2 §4: a credentialed Gratis account with the console's defaults. */
  async function create(input: Input): Promise<AdminUser> {
    if (!input.password) throw new AppError('VALIDATION', { fields: { password: messages.requiredDot } });
    await assertUniversity(input.organizationId);
    const user = await accounts
      .createAccount({
        name: input.name,
        email: input.email,
        password: input.password,
        values: {
          ...adminCreatedUserDefaults,
          phoneNumber: input.phoneNumber,
          homeUniversity: input.homeUniversity,
          organizationId: input.organizationId,
        },
      })
      .catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'EMAIL_TAKEN') throw emailTaken();
        throw error;
      });
    await rememberUniversity(input.homeUniversity);
    return get(user.id);
  }

  /** Edits the account; a new e-mail must be unused, a typed password replaces the old one and ends the user's sessions. */
  async function update(id: string, input: Input): Promise<AdminUser> {
    const [existing] = await db.select().from(users).where(eq(users.id, id));
    if (!existing) throw new AppError('NOT_FOUND');
    await assertUniversity(input.organizationId);
    const email = input.email.trim().toLowerCase();
    if (email !== existing.email) {
      const [taken] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.email, email), ne(users.id, id)));
      if (taken) throw emailTaken();
    }
    if (input.password) {
      const context = await auth.$context;
      const hash = await context.password.hash(input.password);
      await db
        .update(authAccounts)
        .set({ password: hash, updatedAt: new Date() })
        .where(and(eq(authAccounts.userId, id), eq(authAccounts.providerId, 'credential')));
      await db.delete(sessions).where(eq(sessions.userId, id));
    }
    await db
      .update(users)
      .set({
        name: input.name,
        email,
        phoneNumber: input.phoneNumber,
        homeUniversity: input.homeUniversity,
        organizationId: input.organizationId,
        updatedAt: new Date(),
      })
      .where(eq(users.id, id));
    await rememberUniversity(input.homeUniversity);
    return get(id);
  }

  /**
   * Removes the account with its sessions and credentials; an administrator cannot remove themself. An account with
   * payments or certificates is anonymised instead, since deleting the row would take the accounting records with it.
   */
  async function remove(id: string, actingAdminId: string): Promise<void> {
    if (id === actingAdminId) throw new AppError('FORBIDDEN');
    const [existing] = await db
      .select({
        anonymizedAt: users.anonymizedAt,
        // one query: any accounting record or certificate of this account
        hasKeptRecords: sql<boolean>`${or(
          ...[payments, paymentSubscriptions, diplomaTransactions, paymentOrders, certificates].map((table) =>
            exists(
              db
                .select({ one: sql`1` })
                .from(table)
                .where(eq(table.userId, id)),
            ),
          ),
        )}`,
      })
      .from(users)
      .where(eq(users.id, id));
    if (!existing || existing.anonymizedAt) throw new AppError('NOT_FOUND');
    if (existing.hasKeptRecords) await deps.anonymize(id, actingAdminId);
    else {
      // in the ledger first: a deletion reported done is never missing from it
      await deps.recordDeletion(id);
      await accounts.deleteAccount(id);
    }
  }

  return { list, get, create, update, remove };
}

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;

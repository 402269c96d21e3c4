import { and, asc, eq, ilike, sql } from 'drizzle-orm';
import { containsPattern } from '#server/db/search-sql.ts';
import { newAccountMembership } from '#shared/membership/membership.rules.ts';
import type { FastifyRequest } from 'fastify';
import type { Db } from '#server/db/client.ts';
import { organizations, publicUniversities } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { messages } from '#shared/messages.ts';
import type { SignUpData, SignUpResponse, UniversitySuggestion } from '#shared/accounts/signup.schemas.ts';
import type { Auth } from './auth.ts';
import { authHeaders } from './auth-bridge.ts';
import type { ConsentsService } from '#server/features/privacy/consents.service.ts';
import type { AccountsService, UserRow } from './accounts.service.ts';

/** Sign-up (spec 1 §4–§5): a Basic account whatever the plan chosen; Premium comes only from a verified payment. */
export function createSignUpService(deps: {
  db: Db;
  auth: Auth;
  accounts: AccountsService;
  consents?: ConsentsService;
}) {
  const { db, auth, accounts } = deps;

  async function isEmailAvailable(email: string): Promise<boolean> {
    return (await accounts.findByEmail(email)) === null;
  }

  /** An organization a member may name as their university: a non-private Universidad. */
  async function assertUniversityOrganization(organizationId: string | null, field = 'organizationId') {
    if (!organizationId) return;
    const [row] = await db
      .select({ id: organizations.id })
      .from(organizations)
      .where(
        and(
          eq(organizations.id, organizationId),
          eq(organizations.type, 'Universidad'),
          eq(organizations.isPrivate, false),
        ),
      );
    if (!row) throw new AppError('VALIDATION', { fields: { [field]: messages.selectValue } });
  }

  /** A typed home university joins the public catalogue (organizations are already listed). */
  async function rememberUniversity(name: string) {
    const trimmed = name.trim().replace(/\s+/g, ' ');
    if (!trimmed) return;
    const [organization] = await db
      .select({ id: organizations.id })
      .from(organizations)
      .where(and(sql`lower(${organizations.title}) = lower(${trimmed})`, eq(organizations.isPrivate, false)));
    if (organization) return;
    const [existing] = await db
      .select({ name: publicUniversities.name })
      .from(publicUniversities)
      .where(sql`lower(${publicUniversities.name}) = lower(${trimmed})`);
    if (!existing) await db.insert(publicUniversities).values({ name: trimmed }).onConflictDoNothing();
  }

  /** Catalogue names and non-private Universidad organizations matching the typed text. */
  async function suggestUniversities(query: string): Promise<UniversitySuggestion[]> {
    const pattern = containsPattern(query);
    const [orgs, names] = await Promise.all([
      db
        .select({ name: organizations.title, organizationId: organizations.id })
        .from(organizations)
        .where(
          and(
            eq(organizations.type, 'Universidad'),
            eq(organizations.isPrivate, false),
            query ? ilike(organizations.title, pattern) : undefined,
          ),
        )
        .orderBy(asc(organizations.title))
        .limit(10),
      db
        .select({ name: publicUniversities.name })
        .from(publicUniversities)
        .where(query ? ilike(publicUniversities.name, pattern) : undefined)
        .orderBy(asc(publicUniversities.name))
        .limit(15),
    ]);
    const seen = new Set(orgs.map((org) => org.name.toLowerCase()));
    const fromCatalogue = names
      .filter((row) => !seen.has(row.name.toLowerCase()))
      .map((row) => ({ name: row.name, organizationId: null }));
    return [...orgs, ...fromCatalogue].slice(0, 15);
  }

  /** Creates the account as Gratis/BIEN with empty payment fields and signs it in. */
  async function signUp(
    request: FastifyRequest,
    input: SignUpData,
  ): Promise<{ response: SignUpResponse; setCookies: string[]; user: UserRow }> {
    if (!(await isEmailAvailable(input.email))) {
      throw new AppError('EMAIL_TAKEN', { fields: { email: messages.emailTaken } });
    }
    await assertUniversityOrganization(input.organizationId);
    let user: UserRow;
    try {
      user = await accounts.createAccount({
        name: input.name,
        email: input.email,
        password: input.password,
        values: {
          ...newAccountMembership,
          country: input.country,
          city: input.city,
          phoneNumber: input.phoneNumber.replace(/\s+/g, ''),
          promoMail: input.promoMail,
          newsMail: input.newsMail,
          organizationId: input.organizationId,
          homeUniversity: input.homeUniversity || null,
        },
        // the consent log is written with the account: no account without the record of its consents
        alsoWrite: async (tx, row) =>
          deps.consents?.record(row.id, null, { promoMail: input.promoMail, newsMail: input.newsMail }, 'registro', tx),
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'EMAIL_TAKEN') throw new AppError('SIGNUP_USER_EXISTS');
      const code = (error as { body?: { code?: string } }).body?.code;
      if (code === 'USER_ALREADY_EXISTS' || code === 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL')
        throw new AppError('SIGNUP_USER_EXISTS');
      request.log.error({ err: error }, 'sign-up failed');
      throw new AppError('SIGNUP_FAILED');
    }
    await rememberUniversity(input.homeUniversity).catch((error: unknown) =>
      request.log.warn({ err: error }, 'university not saved'),
    );
    const signedIn = await auth.api.signInEmail({
      body: { email: user.email, password: input.password, rememberMe: true },
      headers: authHeaders(request),
      returnHeaders: true,
    });
    const premium = input.plan !== 'basic';
    return {
      user,
      setCookies: signedIn.headers.getSetCookie(),
      response: {
        uid: user.id,
        planAnual: input.plan === 'annual',
        email: user.email,
        userName: user.name,
        paymentType: input.plan,
        type: premium ? 'Premium' : 'Gratis',
      },
    };
  }

  return { isEmailAvailable, assertUniversityOrganization, rememberUniversity, suggestUniversities, signUp };
}

export type SignUpService = ReturnType<typeof createSignUpService>;

import { and, asc, eq, ne } from 'drizzle-orm';
import { formatPhoneInternational } from '#shared/accounts/phone.rules.ts';
import type { Db } from '#server/db/client.ts';
import { authAccounts, certificates, organizations, sessions, users } from '#server/db/schema/index.ts';
import type { MembershipService } from '#server/features/membership/membership.service.ts';
import { AppError } from '#shared/errors.ts';
import { messages } from '#shared/messages.ts';
import { hasPremiumAccess } from '#shared/accounts/accounts.rules.ts';
import type { Profile } from '#shared/accounts/profile.schemas.ts';
import type { z } from 'zod';
import type { profileUpdateSchema } from '#shared/accounts/signup.schemas.ts';
import type { Auth } from './auth.ts';
import type { UserRow } from './accounts.service.ts';
import type { SignUpService } from './signup.service.ts';
import type { ConsentsService } from '#server/features/privacy/consents.service.ts';

type ProfileUpdate = z.output<typeof profileUpdateSchema>;

/** 'Mi CxVet' and 'Mi cuenta': what a member sees and may change about themselves. */
export function createProfileService(deps: {
  db: Db;
  auth: Auth;
  membership: MembershipService;
  signUp: SignUpService;
  consents?: ConsentsService;
  /** The characters of a name the certificate cannot print: a name is refused here, never printed as empty boxes. */
  unprintableCharacters?: (text: string) => Promise<string[]>;
}) {
  const { db, auth, membership, signUp } = deps;

  /**
   * The organisation's title and the certificates the profile shows, as the database has them, and the phone number
   * written for people (libphonenumber's parse was a sixth of a remembered profile's time).
   */
  async function profileRecords(user: UserRow) {
    const [organization] = user.organizationId
      ? await db
          .select({ title: organizations.title })
          .from(organizations)
          .where(eq(organizations.id, user.organizationId))
      : [];
    const completed = hasPremiumAccess(user)
      ? await db
          .select({
            diplomaId: certificates.diplomaId,
            name: certificates.diplomaTitle,
            folio: certificates.folio,
            issuedAt: certificates.issuedAt,
          })
          .from(certificates)
          .where(eq(certificates.userId, user.id))
          .orderBy(asc(certificates.issuedAt))
      : [];
    return { organization, completed, phoneNumberDisplay: formatPhoneInternational(user.phoneNumber) };
  }

  /** `keep`: remembers the records with the request's session (accounts' keptWithSession); without it they are read. */
  async function getProfile(
    user: UserRow,
    keep?: (load: () => Promise<Awaited<ReturnType<typeof profileRecords>>>) => ReturnType<typeof profileRecords>,
  ): Promise<Profile> {
    const load = () => profileRecords(user);
    const { organization, completed, phoneNumberDisplay } = await (keep ? keep(load) : load());
    return {
      personal: {
        name: user.name,
        email: user.email,
        phoneNumber: user.phoneNumber,
        phoneNumberDisplay,
        country: user.country,
        city: user.city,
        homeUniversity: user.homeUniversity ?? '',
        organizationId: user.organizationId,
        organizationTitle: organization?.title ?? null,
        userNumber: user.userNumber,
        createdAt: user.createdAt.toISOString(),
      },
      preferences: { promoMail: user.promoMail, newsMail: user.newsMail },
      membership: await membership.describe(user),
      certificates: completed.map((row) => ({
        diplomaId: row.diplomaId,
        name: row.name,
        folio: String(row.folio).padStart(3, '0'),
        issuedAt: row.issuedAt.toISOString(),
      })),
    };
  }

  /** Saves personal data; credentials (e-mail, password) change first. Type, status and subscription never change here. */
  async function updateProfile(
    user: UserRow,
    input: ProfileUpdate,
    options: { keepSessionId?: string | null } = {},
  ): Promise<Profile> {
    const email = input.email.trim().toLowerCase();
    if (email !== user.email) {
      const [taken] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.email, email), ne(users.id, user.id)));
      if (taken) throw new AppError('EMAIL_TAKEN', { fields: { email: messages.emailTaken } });
    }
    if (input.name !== user.name && deps.unprintableCharacters) {
      const unprintable = await deps.unprintableCharacters(input.name);
      if (unprintable.length > 0)
        throw new AppError('VALIDATION', { fields: { name: messages.nameUnprintable(unprintable) } });
    }
    await signUp.assertUniversityOrganization(input.organizationId);
    if (input.password) {
      const context = await auth.$context;
      const passwordHash = await context.password.hash(input.password);
      await db.transaction(async (tx) => {
        await tx
          .update(authAccounts)
          .set({ password: passwordHash, updatedAt: new Date() })
          .where(and(eq(authAccounts.userId, user.id), eq(authAccounts.providerId, 'credential')));
        // whoever knew the old password is signed out everywhere but on the device that changed it
        await tx
          .delete(sessions)
          .where(
            and(
              eq(sessions.userId, user.id),
              options.keepSessionId ? ne(sessions.id, options.keepSessionId) : undefined,
            ),
          );
      });
    }
    let updated: UserRow | undefined;
    try {
      [updated] = await db
        .update(users)
        .set({
          name: input.name,
          email,
          phoneNumber: input.phoneNumber.replace(/\s+/g, ''),
          country: input.country,
          city: input.city,
          homeUniversity: input.homeUniversity || null,
          organizationId: input.organizationId,
          promoMail: input.promoMail,
          newsMail: input.newsMail,
          updatedAt: new Date(),
        })
        .where(eq(users.id, user.id))
        .returning();
    } catch (error) {
      if ((error as { code?: string }).code === '23505' || /unique/i.test(String(error))) {
        throw new AppError('EMAIL_TAKEN', { fields: { email: messages.emailTaken } });
      }
      throw new AppError('PROFILE_SAVE_FAILED');
    }
    if (!updated) throw new AppError('PROFILE_SAVE_FAILED');
    await deps.consents?.record(
      user.id,
      { promoMail: user.promoMail, newsMail: user.newsMail },
      { promoMail: updated.promoMail, newsMail: updated.newsMail },
      'perfil',
    );
    await signUp.rememberUniversity(input.homeUniversity).catch(() => {});
    return getProfile(updated);
  }

  return { getProfile, updateProfile };
}

export type ProfileService = ReturnType<typeof createProfileService>;

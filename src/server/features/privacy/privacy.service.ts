import { randomUUID } from 'node:crypto';
import type { Log } from '#server/services/log.ts';
import { deletedAccountMembership } from '#shared/membership/membership.rules.ts';
import { liveSubscriptions } from '#server/features/membership/membership.service.ts';
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import {
  accountDeletions,
  analyticsEvents,
  authAccounts,
  bulkMailDeliveries,
  certificates,
  classrooms,
  classroomUsers,
  classroomWarnings,
  contactMessages,
  credits,
  dataExports,
  diplomas,
  diplomaTransactions,
  diplomaUsers,
  diplomaVideoCompletions,
  examAnswers,
  examAttempts,
  examResults,
  jobs,
  loginFailures,
  mailOutbox,
  paymentSubscriptions,
  rateCounters,
  sessions,
  users,
  verifications,
  viewingTokens,
  watchPositions,
  watchedTime,
  favoriteProcedures,
  fiscalProfiles,
} from '#server/db/schema/index.ts';
import type { FileStorage } from '#server/services/storage.ts';
import { mailJobKind, type QueuedMailer } from '#server/services/mail.ts';
import type { ProviderRegistry } from '#server/services/payments/provider-registry.ts';
import type { Auth } from '#server/features/accounts/auth.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { CertificatesService } from '#server/features/diplomas/certificates.service.ts';
import type { RateCounter } from '#server/services/rate-counter.ts';
import { AppError } from '#shared/errors.ts';
import { anonymizedEmail, anonymizedName, type CertificateChoice } from '#shared/privacy/privacy.rules.ts';
import type { ConsentsService } from './consents.service.ts';
import type { DeletionLedger } from './deletion-ledger.ts';
import { accountDeletedMail, exportReadyMail } from './privacy.mails.ts';
import { privacyJobKinds, type PrivacyMail, type Schedule } from './privacy.jobs.ts';
import { createDataExports } from './data-exports.service.ts';

export function createPrivacyService(deps: {
  db: Db;
  storage: FileStorage;
  mailer: QueuedMailer;
  auth: Auth;
  /** Each live subscription is cancelled at the provider recorded on it. */
  providers: ProviderRegistry;
  certificates: CertificatesService;
  consents: ConsentsService;
  rateCounter: RateCounter;
  schedule: Schedule;
  ledger: DeletionLedger;
  publicUrl: string;
  log: Pick<Log, 'warn' | 'info'>;
  now?: () => Date;
}) {
  const {
    db,
    storage,
    mailer,
    auth,
    providers,
    certificates: certificatesService,
    consents,
    rateCounter,
    schedule,
    ledger,
    publicUrl,
    log,
  } = deps;
  const now = deps.now ?? (() => new Date());

  const dataExportsService = createDataExports({
    db,
    storage,
    certificates: certificatesService,
    schedule,
    queueMail,
    log,
    now,
  });

  async function queueMail(mail: PrivacyMail, tx: Db) {
    await schedule(privacyJobKinds.mail, { payload: mail, uniqueKey: `privacy-mail:${mail.token}`, tx });
  }

  /** The mail job; afterwards the job row forgets the address it carried. */
  async function sendMail(payload: PrivacyMail): Promise<void> {
    if (payload.kind === 'export-ready') {
      const [row] = await db
        .select({
          expiresAt: dataExports.expiresAt,
          status: dataExports.status,
          name: users.name,
          email: users.email,
          anonymizedAt: users.anonymizedAt,
        })
        .from(dataExports)
        .innerJoin(users, eq(users.id, dataExports.userId))
        .where(eq(dataExports.id, payload.exportId));
      if (!row || row.status !== 'LISTA' || row.anonymizedAt) return;
      const link = new URL('/perfil/privacidad', publicUrl).toString();
      await mailer.send({ to: row.email, ...exportReadyMail({ name: row.name, link, expiresAt: row.expiresAt! }) });
      return;
    }
    // a run after the one that queued the mail (its instance stopped before marking the job done) finds no address
    if (!('to' in payload)) return;
    // the mail and the job forgetting the address commit together (decision 067)
    await mailer.transaction(async (tx, queue) => {
      await queue({ to: payload.to, ...accountDeletedMail({ name: payload.name, bySelf: payload.bySelf }) });
      await tx
        .update(jobs)
        .set({ payload: { kind: payload.kind, token: payload.token } })
        .where(and(eq(jobs.kind, privacyJobKinds.mail), sql`${jobs.payload}->>'token' = ${payload.token}`));
    });
  }

  /** Checks the member's password with better-auth's own hasher; 5 tries per 15 minutes per account. */
  async function verifyPassword(user: UserRow, password: string): Promise<void> {
    if (!(await rateCounter.hit({ key: `delete-account:${user.id}`, max: 5, windowMs: 15 * 60_000 })))
      throw new AppError('RATE_LIMITED');
    const [credential] = await db
      .select({ password: authAccounts.password })
      .from(authAccounts)
      .where(and(eq(authAccounts.userId, user.id), eq(authAccounts.providerId, 'credential')));
    const context = await auth.$context;
    const valid = credential?.password ? await context.password.verify({ hash: credential.password, password }) : false;
    if (!valid) throw new AppError('LOGIN_WRONG_PASSWORD', { fields: { password: 'La contraseña no es correcta.' } });
  }

  /**
   * Cancels every live subscription with the provider first; a refusal stops the deletion before
   * anything is written. Returns the ids cancelled.
   */
  async function cancelSubscriptions(userId: string): Promise<string[]> {
    // unlike a downgrade, a deletion also closes the checkouts still waiting for approval
    const live = await liveSubscriptions(db, userId, providers.names, { pendingCheckouts: true });
    const cancelled: string[] = [];
    for (const subscription of live) {
      // liveSubscriptions answers only the configured providers' subscriptions
      const provider = providers.get(subscription.provider);
      if (!provider) continue;
      if (subscription.state === 'PENDIENTE') {
        // a checkout never approved cannot charge; cancelling it is a courtesy the provider may refuse
        await provider.cancelSubscription(subscription.providerSubscriptionId, 'Cuenta eliminada').catch(() => {});
        await db
          .update(paymentSubscriptions)
          .set({ supersededAt: now(), updatedAt: now() })
          .where(eq(paymentSubscriptions.id, subscription.id));
        continue;
      }
      const remote = await provider.getSubscription(subscription.providerSubscriptionId).catch(() => undefined);
      if (remote && (remote.status === 'CANCELLED' || remote.status === 'EXPIRED')) {
        await db
          .update(paymentSubscriptions)
          .set({ state: 'CANCELADA', updatedAt: now() })
          .where(eq(paymentSubscriptions.id, subscription.id));
        continue;
      }
      try {
        await provider.cancelSubscription(
          subscription.providerSubscriptionId,
          'Cuenta eliminada a petición del titular',
        );
      } catch (error) {
        // a refusal because it is already cancelled (a second click, a cancel at PayPal itself) is no refusal
        const after = await provider.getSubscription(subscription.providerSubscriptionId).catch(() => null);
        if (after?.status !== 'CANCELLED' && after?.status !== 'EXPIRED') {
          log.warn(
            { err: error, subscriptionId: subscription.providerSubscriptionId },
            'provider refused to cancel before an account deletion',
          );
          throw new AppError('ACCOUNT_DELETE_PROVIDER_REFUSED');
        }
      }
      await db
        .update(paymentSubscriptions)
        .set({ state: 'CANCELADA', updatedAt: now() })
        .where(eq(paymentSubscriptions.id, subscription.id));
      cancelled.push(subscription.providerSubscriptionId);
    }
    return cancelled;
  }

  /**
   * Anonymises the account in one transaction: identity, credentials, sessions, consents, memberships
   * and history go; payments keep amounts and dates without identity; certificates stay verifiable
   * without the name, or are revoked. The confirmation mail is queued in the same transaction.
   * A second call for the same account does nothing (returns false).
   */
  async function anonymize(
    userId: string,
    options: {
      certificates: CertificateChoice;
      actorId: string | null;
      bySelf: boolean;
      reason: string;
      replay?: boolean;
    },
  ): Promise<boolean> {
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    if (!user) throw new AppError('NOT_FOUND');
    if (user.anonymizedAt) return false;
    const cancelled = await cancelSubscriptions(userId);
    const at = now();
    const done = await db.transaction(async (tx) => {
      const [before] = await tx
        .update(users)
        .set({
          name: anonymizedName,
          email: anonymizedEmail(userId),
          emailVerified: false,
          image: null,
          phoneNumber: '',
          city: '',
          country: '',
          homeUniversity: null,
          licenceNumber: '',
          organizationId: null,
          promoMail: false,
          newsMail: false,
          isDisabled: true,
          anonymizedAt: at,
          ...deletedAccountMembership,
          updatedAt: at,
        })
        .where(and(eq(users.id, userId), isNull(users.anonymizedAt)))
        .returning({ id: users.id });
      // another request deleted it first
      if (!before) return false;
      await consents.record(
        userId,
        { promoMail: user.promoMail, newsMail: user.newsMail },
        { promoMail: false, newsMail: false },
        'eliminación de cuenta',
        tx,
      );
      await tx.delete(sessions).where(eq(sessions.userId, userId));
      await tx.delete(authAccounts).where(eq(authAccounts.userId, userId));
      await tx.delete(verifications).where(eq(verifications.value, userId));
      await tx.delete(viewingTokens).where(eq(viewingTokens.userId, userId));
      await tx.delete(loginFailures).where(eq(loginFailures.email, user.email));
      await tx.delete(rateCounters).where(sql`position(${user.email} in ${rateCounters.key}) > 0`);
      await tx.delete(classroomUsers).where(eq(classroomUsers.userId, userId));
      await tx.delete(classroomWarnings).where(eq(classroomWarnings.userId, userId));
      await tx.update(classrooms).set({ adminUserId: null }).where(eq(classrooms.adminUserId, userId));
      await tx.update(diplomas).set({ adminUserId: null }).where(eq(diplomas.adminUserId, userId));
      await tx.delete(examAnswers).where(eq(examAnswers.userId, userId));
      await tx.delete(examResults).where(eq(examResults.userId, userId));
      await tx.delete(examAttempts).where(eq(examAttempts.userId, userId));
      await tx.delete(diplomaVideoCompletions).where(eq(diplomaVideoCompletions.userId, userId));
      await tx.delete(diplomaUsers).where(eq(diplomaUsers.userId, userId));
      await tx.delete(watchPositions).where(eq(watchPositions.userId, userId));
      await tx.delete(watchedTime).where(eq(watchedTime.userId, userId));
      await tx.delete(favoriteProcedures).where(eq(favoriteProcedures.userId, userId));
      // the fiscal data kept for the next request goes; facturas already issued stay, as the SAT requires
      await tx.delete(fiscalProfiles).where(eq(fiscalProfiles.userId, userId));
      await tx
        .update(diplomaTransactions)
        .set({ data: null, error: null })
        .where(eq(diplomaTransactions.userId, userId));
      await tx
        .update(certificates)
        .set(
          options.certificates === 'revoke'
            ? { holderName: '', credential: null, revokedAt: at, revokeReason: 'Cuenta eliminada por su titular' }
            : { holderName: '', credential: null },
        )
        .where(eq(certificates.userId, userId));
      // continuing-education records keep their frozen name four years for audits (decision 009); 'revoke' revokes them
      if (options.certificates === 'revoke')
        await tx
          .update(credits)
          .set({ revokedAt: at, revokeReason: 'Cuenta eliminada por su titular' })
          .where(and(eq(credits.userId, userId), isNull(credits.revokedAt)));
      // statistics keep their counts; nothing ties them to the member any more
      await tx.update(analyticsEvents).set({ userId: null }).where(eq(analyticsEvents.userId, userId));
      await tx.delete(bulkMailDeliveries).where(eq(bulkMailDeliveries.userId, userId));
      await tx.delete(mailOutbox).where(eq(mailOutbox.to, user.email));
      // mail to or from it still waiting for the SMTP server (decision 064) goes too; the deletion's notice is queued below
      await tx
        .delete(jobs)
        .where(
          and(
            eq(jobs.kind, mailJobKind),
            isNull(jobs.doneAt),
            sql`(${jobs.payload}->>'to' = ${user.email} or ${jobs.payload}->>'replyTo' = ${user.email})`,
          ),
        );
      await tx.delete(contactMessages).where(eq(contactMessages.email, user.email));
      await tx
        .update(dataExports)
        .set({ status: 'EXPIRADA' })
        .where(and(eq(dataExports.userId, userId), inArray(dataExports.status, ['LISTA', 'PENDIENTE'])));
      // a deletion applied again after a restore already told the member
      if (!options.replay)
        await queueMail(
          { kind: 'account-deleted', to: user.email, name: user.name, bySelf: options.bySelf, token: randomUUID() },
          tx,
        );
      await tx.insert(accountDeletions).values({
        userId,
        actorId: options.actorId,
        bySelf: options.bySelf,
        reason: options.reason,
        certificates: options.certificates,
        cancelledSubscriptionId: cancelled.join(',') || null,
        createdAt: at,
      });
      // written before the commit: a deletion reported done is always in the ledger, and a failed write undoes it
      if (!options.replay) await ledger.append([{ userId, certificates: options.certificates }], at);
      return true;
    });
    if (done) {
      await dataExportsService
        .sweepExpired()
        .catch((error: unknown) => log.warn({ err: error }, 'export files of a deleted account not removed yet'));
      log.info({ userId, bySelf: options.bySelf }, 'account anonymised');
    }
    return done;
  }

  /** Writes the deletion to the shared ledger before it is done; a failure stops the deletion. */
  async function recordDeletion(userId: string, choice: CertificateChoice = 'keep'): Promise<void> {
    await ledger.append([{ userId, certificates: choice }], now());
  }

  /**
   * At every start: deletions in the ledger that the database does not show (an older backup was restored) are
   * applied again, without mail; anonymised accounts missing from the ledger (a crash before it was written) are added.
   */
  async function reconcileDeletions(): Promise<{ replayed: number; recorded: number }> {
    const entries = await ledger.read();
    const choices = new Map(entries.map((entry) => [entry.userId, entry.certificates ?? 'keep']));
    const ids = [...choices.keys()];
    let replayed = 0;
    for (let start = 0; start < ids.length; start += 1000) {
      const back = await db
        .select({ id: users.id })
        .from(users)
        .where(and(inArray(users.id, ids.slice(start, start + 1000)), isNull(users.anonymizedAt)));
      for (const { id } of back) {
        const reason = 'Eliminación aplicada de nuevo tras restaurar un respaldo';
        if (await anonymize(id, { certificates: choices.get(id)!, actorId: null, bySelf: false, reason, replay: true }))
          replayed++;
      }
    }
    const anonymised = await db.select({ id: users.id }).from(users).where(isNotNull(users.anonymizedAt));
    const missing = anonymised.filter(({ id }) => !choices.has(id)).map(({ id }) => ({ userId: id }));
    await ledger.append(missing, now());
    if (replayed > 0) log.info({ replayed }, 'deletions applied again after a restore');
    return { replayed, recorded: missing.length };
  }

  /** 'Eliminar mi cuenta': the member's own password first. */
  async function deleteOwnAccount(
    user: UserRow,
    input: { password: string; certificates: CertificateChoice },
  ): Promise<void> {
    await verifyPassword(user, input.password);
    await anonymize(user.id, {
      certificates: input.certificates,
      actorId: user.id,
      bySelf: true,
      reason: 'Solicitud del titular desde su perfil',
    });
  }

  /** An Admin, on the member's request: recorded with who, when and why. */
  async function deleteOnRequest(
    userId: string,
    actor: UserRow,
    input: { reason: string; certificates: CertificateChoice },
  ): Promise<void> {
    if (userId === actor.id) throw new AppError('FORBIDDEN');
    const [target] = await db.select({ anonymizedAt: users.anonymizedAt }).from(users).where(eq(users.id, userId));
    if (!target) throw new AppError('NOT_FOUND');
    if (target.anonymizedAt) throw new AppError('CONFLICT');
    await anonymize(userId, {
      certificates: input.certificates,
      actorId: actor.id,
      bySelf: false,
      reason: input.reason,
    });
  }

  return {
    ...dataExportsService,
    sendMail,
    deleteOwnAccount,
    deleteOnRequest,
    anonymize,
    recordDeletion,
    reconcileDeletions,
  };
}

export type PrivacyService = ReturnType<typeof createPrivacyService>;

import { and, eq, inArray, isNotNull, isNull, like, lte, ne, or } from 'drizzle-orm';
import type { Log } from '#server/services/log.ts';
import type { Db } from '#server/db/client.ts';
import { paymentSubscriptions, users } from '#server/db/schema/index.ts';
import type { MailMessage, QueueMail, QueuedMailer } from '#server/services/mail.ts';
import { ProviderError, type ProviderSubscriptionStatus } from '#server/services/payments/payment-provider.ts';
import type {
  ProviderName,
  ProviderRegistry,
  SubscriptionOperations,
} from '#server/services/payments/provider-registry.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import { AppError } from '#shared/errors.ts';
import { hasPremiumAccess } from '#shared/accounts/accounts.rules.ts';
import {
  canDowngrade,
  canEndManualPremium,
  canGrantManualPremium,
  canReactivate,
  canUpgrade,
  dueScheduledChange,
  manualPremiumExpiry,
  isPrepaidPass,
  isUnbilledPremium,
  manualSubscriptionId,
  prepaidPassPrefix,
  nextPaymentDate,
  periodMs,
} from '#shared/membership/membership.rules.ts';
import type { Membership } from '#shared/membership/membership.schemas.ts';
import { accountMail, type AccountMailAction } from './membership.mails.ts';
import { createPaymentOutcomes, subscriptionVersion, type PaymentOutcomes } from './membership-payments.ts';

/**
 * An account's live subscriptions at the providers named: ACTIVA or SUSPENDIDA (they can still charge). With
 * `pendingCheckouts`, also its PENDIENTE checkouts not superseded, which an account deletion cancels as well.
 */
export function liveSubscriptions(
  db: Db,
  userId: string,
  providerNames: readonly ProviderName[],
  options: { pendingCheckouts: boolean; except?: string | null },
) {
  const chargeable = inArray(paymentSubscriptions.state, ['ACTIVA', 'SUSPENDIDA']);
  return db
    .select()
    .from(paymentSubscriptions)
    .where(
      and(
        eq(paymentSubscriptions.userId, userId),
        inArray(paymentSubscriptions.provider, [...providerNames]),
        options.pendingCheckouts
          ? or(chargeable, and(eq(paymentSubscriptions.state, 'PENDIENTE'), isNull(paymentSubscriptions.supersededAt)))
          : chargeable,
        options.except ? ne(paymentSubscriptions.providerSubscriptionId, options.except) : undefined,
      ),
    );
}

/** Provider statuses in which a subscription no longer bills, with our record's state for each. */
const endedStates: Partial<Record<ProviderSubscriptionStatus, typeof paymentSubscriptions.$inferSelect.state>> = {
  SUSPENDED: 'SUSPENDIDA',
  CANCELLED: 'CANCELADA',
  EXPIRED: 'EXPIRADA',
};

/**
 * Membership changes of spec 1 §4 and spec 3 §4: downgrade, reactivation, payment outcomes, scheduled changes,
 * manual Premium and the Admin promotion. The only code that updates a member's plan and payment state
 * (type, paymentStatus, annualPlan, paymentDay, subscriptionId, terminationDate); the rules it applies are
 * in #shared/membership/membership.rules.ts so the screens show what it allows.
 */
export function createMembershipService(deps: {
  db: Db;
  /** Each subscription is suspended, resumed or cancelled at the provider recorded on it. */
  providers: ProviderRegistry;
  mailer: QueuedMailer;
  publicUrl: string;
  log?: Pick<Log, 'warn'>;
  now?: () => Date;
}) {
  const { db, providers, mailer, publicUrl } = deps;
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? { warn() {} };

  async function findUser(userId: string): Promise<UserRow | null> {
    const [row] = await db.select().from(users).where(eq(users.id, userId));
    return row ?? null;
  }

  /**
   * Our record of a subscription at a configured provider; ids we never created (demo, MANUAL) and
   * subscriptions of a provider no longer configured are no provider's to act on.
   */
  async function mappedSubscription(subscriptionId: string | null) {
    if (!subscriptionId || subscriptionId === manualSubscriptionId) return null;
    const [row] = await db
      .select()
      .from(paymentSubscriptions)
      .where(
        and(
          eq(paymentSubscriptions.providerSubscriptionId, subscriptionId),
          inArray(paymentSubscriptions.provider, [...providers.names]),
        ),
      );
    return row ?? null;
  }

  /** The provider that holds a subscription recorded at a configured provider. */
  function holderOf(row: { provider: ProviderName }): SubscriptionOperations {
    const holder = providers.get(row.provider);
    if (!holder) throw new Error(`payment provider ${row.provider} is not configured`);
    return holder;
  }

  async function setSubscriptionState(subscriptionId: string, state: typeof paymentSubscriptions.$inferSelect.state) {
    await db
      .update(paymentSubscriptions)
      .set({ state, updatedAt: now() })
      .where(eq(paymentSubscriptions.providerSubscriptionId, subscriptionId));
  }

  function accountMailMessage(user: UserRow, action: AccountMailAction, paymentDate: Date | null): MailMessage {
    return {
      to: user.email,
      ...accountMail(action, {
        name: user.name,
        accountType: user.type,
        annualPlan: user.annualPlan,
        paymentDate,
        publicUrl,
      }),
    };
  }

  /** An account e-mail that follows no write of this service (the sign-up's, once it is finished). */
  async function sendAccountMail(user: UserRow, action: AccountMailAction, paymentDate: Date | null) {
    await mailer.send(accountMailMessage(user, action, paymentDate));
  }

  /** The payment outcomes written in `tx`, their e-mails queued in it (decision 067). */
  function outcomesIn(tx: Db, queue: QueueMail): PaymentOutcomes {
    return createPaymentOutcomes({ db: tx, queue, publicUrl, now, accountMail: accountMailMessage });
  }

  /** What the profile shows about the membership, and which changes the member may ask for. */
  async function describe(user: UserRow): Promise<Membership> {
    const at = now();
    // a provider bills by calendar month: its own next charge date, our arithmetic only for records it never dated
    const mapped = await mappedSubscription(user.subscriptionId);
    const billedUntil = mapped?.nextBillingAt ?? null;
    // cancelled at its provider: that subscription cannot be resumed
    const resumable = mapped?.state !== 'CANCELADA' && mapped?.state !== 'EXPIRADA';
    const isManual = user.subscriptionId === manualSubscriptionId;
    const unbilled = isUnbilledPremium(user.subscriptionId);
    // a manual Premium or a pass is never charged: it shows when it ends instead of a next payment
    const billed = user.type === 'Premium' && user.paymentDay !== null && !unbilled;
    const manualUntil =
      unbilled && user.type === 'Premium' && user.paymentDay
        ? manualPremiumExpiry(user.paymentDay, user.annualPlan)
        : null;
    return {
      type: user.type,
      paymentStatus: user.paymentStatus,
      annualPlan: user.annualPlan,
      paymentDay: user.paymentDay?.toISOString() ?? null,
      nextPaymentDate: billed
        ? (billedUntil ?? nextPaymentDate(user.paymentDay!, user.annualPlan, at)).toISOString()
        : null,
      terminationDate: (manualUntil ?? user.terminationDate)?.toISOString() ?? null,
      isManual,
      isPrepaid: isPrepaidPass(user.subscriptionId),
      hasPremiumAccess: hasPremiumAccess(user, at),
      paymentFailed: user.paymentStatus === 'FALLIDO',
      canDowngrade: canDowngrade(user),
      canReactivate: resumable && canReactivate(user, at),
      canUpgrade: canUpgrade(user),
    };
  }

  /** Premium → Gratis + POR_TERMINAR: billing stops now, benefits stay until the paid period ends. */
  async function downgrade(user: UserRow): Promise<Membership> {
    if (!canDowngrade(user)) throw new AppError('MEMBERSHIP_CHANGE_NOT_ALLOWED');
    const at = now();
    const mapped = await mappedSubscription(user.subscriptionId);
    // the paid period ends when the provider would charge next; our own arithmetic only without one
    let providerPeriodEnd: Date | null = mapped?.nextBillingAt ?? null;
    if (mapped) {
      const id = mapped.providerSubscriptionId;
      const provider = holderOf(mapped);
      try {
        const current = await provider.getSubscription(id);
        providerPeriodEnd = current?.nextBillingTime ?? providerPeriodEnd;
        // suspended or ended at its provider already (its dashboard, or a suspend whose answer was lost): billing has stopped
        const stopped = current ? endedStates[current.status] : undefined;
        if (stopped) await setSubscriptionState(id, stopped);
        else await suspendOrConfirm(provider, id);
      } catch (error) {
        log.warn({ err: error, subscriptionId: id }, 'provider refused to suspend');
        throw new AppError('SUBSCRIPTION_UNMAPPED_ERROR');
      }
    }
    await stopOtherSubscriptions(user.id, mapped?.providerSubscriptionId ?? null);
    const periodEnd =
      providerPeriodEnd ?? (user.paymentDay ? nextPaymentDate(user.paymentDay, user.annualPlan, at) : at);
    // the account's change and its e-mail commit together (decision 067)
    const updated = await mailer.transaction(async (tx, queue) => {
      const [row] = await tx
        .update(users)
        .set({ type: 'Gratis', paymentStatus: 'POR_TERMINAR', terminationDate: periodEnd, updatedAt: at })
        .where(and(eq(users.id, user.id), eq(users.type, 'Premium'), eq(users.paymentStatus, 'BIEN')))
        .returning();
      if (row) await queue(accountMailMessage(row, 'DOWNGRADE', periodEnd));
      return row;
    });
    if (!updated) {
      // the provider's webhook may have applied this very downgrade a moment earlier (and sent its e-mail)
      const current = await findUser(user.id);
      if (current?.paymentStatus === 'POR_TERMINAR' && current.type === 'Gratis') return await describe(current);
      throw new AppError('CONFLICT');
    }
    return await describe(updated);
  }

  /** Suspends at the provider; a refusal because it is no longer active counts when the provider shows it stopped. */
  async function suspendOrConfirm(provider: SubscriptionOperations, id: string) {
    try {
      await provider.suspendSubscription(id, 'Cambio a membresía básica');
      await setSubscriptionState(id, 'SUSPENDIDA');
    } catch (error) {
      const current = error instanceof ProviderError && error.unprocessable ? await provider.getSubscription(id) : null;
      const stopped = current ? endedStates[current.status] : undefined;
      if (!stopped) throw error;
      await setSubscriptionState(id, stopped);
    }
  }

  /**
   * An account keeps at most one live provider subscription: on a downgrade every other one it
   * still has (left by two checkouts before this rule) is cancelled, so none keeps charging.
   */
  async function stopOtherSubscriptions(userId: string, keep: string | null) {
    const others = await liveSubscriptions(db, userId, providers.names, { pendingCheckouts: false, except: keep });
    for (const other of others) {
      try {
        await holderOf(other).cancelSubscription(other.providerSubscriptionId, 'Cambio a membresía básica');
        await setSubscriptionState(other.providerSubscriptionId, 'CANCELADA');
      } catch (error) {
        log.warn(
          { err: error, subscriptionId: other.providerSubscriptionId },
          'provider refused to cancel a second subscription',
        );
        throw new AppError('SUBSCRIPTION_UNMAPPED_ERROR');
      }
    }
  }

  /** POR_TERMINAR → Premium/BIEN before the paid period ends; billing resumes at the provider. */
  async function reactivate(user: UserRow): Promise<Membership> {
    const at = now();
    if (!canReactivate(user, at)) throw new AppError('MEMBERSHIP_CHANGE_NOT_ALLOWED');
    const mapped = await mappedSubscription(user.subscriptionId);
    // ended at its provider (cancelled there): it cannot be resumed, only replaced by a new subscription
    if (mapped && (mapped.state === 'CANCELADA' || mapped.state === 'EXPIRADA'))
      throw new AppError('MEMBERSHIP_CHANGE_NOT_ALLOWED');
    if (mapped) {
      try {
        await holderOf(mapped).activateSubscription(mapped.providerSubscriptionId, 'Reactivación de Premium');
      } catch (error) {
        log.warn({ err: error, subscriptionId: mapped.providerSubscriptionId }, 'provider refused to reactivate');
        throw new AppError('SUBSCRIPTION_UNMAPPED_ERROR');
      }
    }
    // our record and the account change together: a reconcile never sees one without the other (decision 062)
    const updated = await db.transaction(async (tx) => {
      if (mapped)
        await tx
          .update(paymentSubscriptions)
          .set({ state: 'ACTIVA', updatedAt: at })
          .where(eq(paymentSubscriptions.id, mapped.id));
      const [row] = await tx
        .update(users)
        .set({ type: 'Premium', paymentStatus: 'BIEN', terminationDate: null, updatedAt: at })
        .where(and(eq(users.id, user.id), eq(users.paymentStatus, 'POR_TERMINAR'), eq(users.type, 'Gratis')))
        .returning();
      return row;
    });
    if (updated) return await describe(updated);
    // the resumed subscription's own webhook may have made this member Premium a moment earlier
    const current = await findUser(user.id);
    if (
      current?.type === 'Premium' &&
      current.paymentStatus === 'BIEN' &&
      current.subscriptionId === user.subscriptionId
    )
      return await describe(current);
    throw new AppError('CONFLICT');
  }

  /**
   * Applies what a reconcile read from a provider, unless our record of that subscription changed since the
   * reconcile read it (`version`, read before the provider was asked): a reactivation or a downgrade that ran
   * meanwhile made the provider's answer stale. The check, our record's update, the account's and its e-mails are
   * one short transaction with no provider call in it (decisions 062 and 067). False when the reconcile must read
   * again.
   */
  async function applyUnlessChanged(
    subscription: { id: string; version: string },
    apply: (outcomes: PaymentOutcomes, tx: Db) => Promise<void>,
  ): Promise<boolean> {
    return await mailer.transaction(async (tx, queue) => {
      const [current] = await tx
        .select({ version: subscriptionVersion })
        .from(paymentSubscriptions)
        .where(eq(paymentSubscriptions.id, subscription.id))
        .for('update');
      if (current?.version !== subscription.version) return false;
      await apply(outcomesIn(tx, queue), tx);
      return true;
    });
  }

  /** Applies the scheduled change due for one account; true when one happened. Safe to run twice. */
  async function applyDueChanges(userId: string): Promise<boolean> {
    const user = await findUser(userId);
    if (!user) return false;
    const at = now();
    const change = dueScheduledChange(user, at);
    if (!change) return false;
    if (change === 'downgradeEnded') {
      const [updated] = await db
        .update(users)
        .set({ type: 'Gratis', paymentStatus: 'CANCELLED', terminationDate: null, updatedAt: at })
        .where(and(eq(users.id, userId), eq(users.type, 'Gratis'), eq(users.paymentStatus, 'POR_TERMINAR')))
        .returning();
      if (!updated) return false;
      const mapped = await mappedSubscription(user.subscriptionId);
      if (mapped) {
        // the period is over: the suspended subscription is ended for good
        await holderOf(mapped)
          .cancelSubscription(mapped.providerSubscriptionId, 'Fin del periodo pagado')
          .then(() => setSubscriptionState(mapped.providerSubscriptionId, 'CANCELADA'))
          .catch((error: unknown) =>
            log.warn({ err: error, subscriptionId: mapped.providerSubscriptionId }, 'provider cancel failed'),
          );
      }
      return true;
    }
    if (change === 'legacyEnded') {
      const updated = await db
        .update(users)
        .set({ type: 'Gratis', terminationDate: null, updatedAt: at })
        .where(and(eq(users.id, userId), eq(users.type, 'Legacy'), lte(users.terminationDate, at)))
        .returning({ id: users.id });
      return updated.length > 0;
    }
    if (user.paymentDay && manualPremiumExpiry(user.paymentDay, user.annualPlan) > at) return false;
    const updated = await db
      .update(users)
      .set({
        type: 'Gratis',
        paymentStatus: 'BIEN',
        annualPlan: false,
        paymentDay: null,
        subscriptionId: null,
        terminationDate: null,
        updatedAt: at,
      })
      // the one that expired, granted by hand or paid once, and not replaced since it was read
      .where(and(eq(users.id, userId), eq(users.type, 'Premium'), eq(users.subscriptionId, user.subscriptionId!)))
      .returning({ id: users.id });
    return updated.length > 0;
  }

  /** Runs every due scheduled change; the job calls this. Returns how many accounts changed. */
  async function sweep(batchSize = 500): Promise<number> {
    const at = now();
    const manualCutoff = new Date(at.getTime() - periodMs.monthly);
    const candidates = await db
      .select({ id: users.id })
      .from(users)
      .where(
        or(
          and(
            eq(users.type, 'Gratis'),
            eq(users.paymentStatus, 'POR_TERMINAR'),
            or(isNull(users.terminationDate), lte(users.terminationDate, at)),
          ),
          and(eq(users.type, 'Legacy'), isNotNull(users.terminationDate), lte(users.terminationDate, at)),
          and(
            eq(users.type, 'Premium'),
            or(eq(users.subscriptionId, manualSubscriptionId), like(users.subscriptionId, `${prepaidPassPrefix}%`)),
            lte(users.paymentDay, manualCutoff),
          ),
        ),
      )
      .limit(batchSize);
    let changed = 0;
    for (const { id } of candidates) {
      if (await applyDueChanges(id)) changed++;
    }
    return changed;
  }
  /** An outcome applied on its own: one transaction holds its write and the e-mail it sends (decision 067). */
  function inItsOwnTransaction<A extends unknown[], R>(
    outcome: (outcomes: PaymentOutcomes) => (...args: A) => Promise<R>,
  ): (...args: A) => Promise<R> {
    return (...args) => mailer.transaction((tx, queue) => outcome(outcomesIn(tx, queue))(...args));
  }
  const activatePremium = inItsOwnTransaction((outcomes) => outcomes.activatePremium);
  const markPaymentFailed = inItsOwnTransaction((outcomes) => outcomes.markPaymentFailed);
  const markCancelled = inItsOwnTransaction((outcomes) => outcomes.markCancelled);
  const markBillingEnded = inItsOwnTransaction((outcomes) => outcomes.markBillingEnded);
  const markRefunded = inItsOwnTransaction((outcomes) => outcomes.markRefunded);
  const grantPrepaidPass = inItsOwnTransaction((outcomes) => outcomes.grantPrepaidPass);

  /** Spec 3 §4: Premium granted by an administrator for a month or a year, ending by itself at expiry. */
  async function grantManualPremium(userId: string, annualPlan: boolean): Promise<void> {
    const user = await findUser(userId);
    if (!user) throw new AppError('NOT_FOUND');
    if (!canGrantManualPremium(user)) throw new AppError('CONFLICT');
    const at = now();
    const [granted] = await db
      .update(users)
      .set({
        type: 'Premium',
        paymentDay: at,
        subscriptionId: manualSubscriptionId,
        annualPlan,
        paymentStatus: 'BIEN',
        terminationDate: null,
        updatedAt: at,
      })
      // two administrators at once: only the first finds the account still free
      .where(and(eq(users.id, userId), eq(users.type, 'Gratis')))
      .returning({ id: users.id });
    if (!granted) throw new AppError('CONFLICT');
  }

  /** Ends a manual Premium now: back to Gratis with empty payment fields. */
  async function endManualPremium(userId: string): Promise<void> {
    const user = await findUser(userId);
    if (!user) throw new AppError('NOT_FOUND');
    if (!canEndManualPremium(user)) throw new AppError('CONFLICT');
    await db
      .update(users)
      .set({
        type: 'Gratis',
        paymentDay: null,
        subscriptionId: null,
        terminationDate: null,
        paymentStatus: 'BIEN',
        annualPlan: false,
        updatedAt: now(),
      })
      .where(and(eq(users.id, userId), eq(users.subscriptionId, manualSubscriptionId)));
  }

  /** ADMIN_EMAIL's account becomes an Admin at start-up (its other fields are kept). */
  async function promoteToAdmin(userId: string): Promise<void> {
    await db.update(users).set({ type: 'Admin', updatedAt: now() }).where(eq(users.id, userId));
  }

  return {
    grantManualPremium,
    endManualPremium,
    promoteToAdmin,
    findUser,
    markRefunded,
    describe,
    downgrade,
    reactivate,
    applyDueChanges,
    sweep,
    activatePremium,
    markPaymentFailed,
    markCancelled,
    markBillingEnded,
    grantPrepaidPass,
    sendAccountMail,
    applyUnlessChanged,
  };
}

export type MembershipService = ReturnType<typeof createMembershipService>;

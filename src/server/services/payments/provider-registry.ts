import type { paymentProviders } from '#shared/payments/payments.rules.ts';
import type { PaymentProvider, ProviderSubscription } from './payment-provider.ts';

/** A name a subscription is recorded under (payment_subscriptions.provider). */
export type ProviderName = (typeof paymentProviders)[number];

/**
 * What membership and an account deletion do to a subscription at the provider that holds it: read,
 * suspend, resume, cancel. The rules stay in membership; a provider only carries them out.
 */
export type SubscriptionOperations = Pick<
  PaymentProvider,
  'suspendSubscription' | 'activateSubscription' | 'cancelSubscription'
> & {
  readonly name: ProviderName;
  /** Its status and next charge date (the end of the paid period); null when the provider does not know the id. */
  getSubscription(id: string): Promise<Pick<ProviderSubscription, 'status' | 'nextBillingTime'> | null>;
};

/** Every configured provider by name: a subscription is always handled by the one recorded on it. */
export type ProviderRegistry = {
  /** The configured providers' names; a subscription recorded under another name is not ours to act on. */
  readonly names: readonly ProviderName[];
  /** The provider that holds subscriptions recorded under `name`, or null when it is not configured. */
  get(name: ProviderName): SubscriptionOperations | null;
};

export function createProviderRegistry(providers: readonly SubscriptionOperations[]): ProviderRegistry {
  const byName = new Map<ProviderName, SubscriptionOperations>();
  for (const provider of providers) {
    if (byName.has(provider.name)) throw new Error(`two payment providers named ${provider.name}`);
    byName.set(provider.name, provider);
  }
  if (byName.size === 0) throw new Error('at least one payment provider is needed');
  return { names: [...byName.keys()], get: (name) => byName.get(name) ?? null };
}

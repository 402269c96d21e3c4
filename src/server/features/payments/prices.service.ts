import { and, eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { planPrices } from '#server/db/schema/index.ts';
import { centsToCost, costToCents } from '#shared/diplomas/diplomas.admin.schemas.ts';
import type { Plan } from '#shared/payments/payments.rules.ts';
import type { MxnPlanPrices } from '#shared/payments/prices.schemas.ts';

/** The plans' prices in pesos set by the Admin; a plan without one is not sold in pesos. */
export function createPricesService(deps: { db: Db }) {
  const { db } = deps;

  /** The MXN price of a plan in cents, or null when the Admin set none. */
  async function mxnPlanPriceCents(plan: Plan): Promise<number | null> {
    const [row] = await db
      .select({ amountCents: planPrices.amountCents })
      .from(planPrices)
      .where(and(eq(planPrices.plan, plan), eq(planPrices.currency, 'MXN')));
    return row?.amountCents ?? null;
  }

  /** The console's form: both plans, '' for none. */
  async function mxnPlanPrices(): Promise<MxnPlanPrices> {
    const rows = await db.select().from(planPrices).where(eq(planPrices.currency, 'MXN'));
    const of = (plan: Plan) => rows.find((row) => row.plan === plan);
    return {
      monthly: of('monthly') ? centsToCost(of('monthly')!.amountCents) : '',
      annual: of('annual') ? centsToCost(of('annual')!.amountCents) : '',
    };
  }

  /** Sets both MXN prices; live subscriptions keep the amount they were created with at the provider. */
  async function setMxnPlanPrices(input: MxnPlanPrices): Promise<MxnPlanPrices> {
    await db.transaction(async (tx) => {
      for (const plan of ['monthly', 'annual'] as const) {
        const price = input[plan];
        if (!price) {
          await tx.delete(planPrices).where(and(eq(planPrices.plan, plan), eq(planPrices.currency, 'MXN')));
          continue;
        }
        const amountCents = costToCents(price);
        await tx
          .insert(planPrices)
          .values({ plan, currency: 'MXN', amountCents })
          .onConflictDoUpdate({
            target: [planPrices.plan, planPrices.currency],
            set: { amountCents, updatedAt: new Date() },
          });
      }
    });
    return mxnPlanPrices();
  }

  return { mxnPlanPriceCents, mxnPlanPrices, setMxnPlanPrices };
}

export type PricesService = ReturnType<typeof createPricesService>;

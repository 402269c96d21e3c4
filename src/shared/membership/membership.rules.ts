const dayMs = 86_400_000;

/** Payment period lengths of spec 1 §9 (DESIGN.md: 30 days, not the admin spec's 31). */
export const periodMs = { monthly: 30 * dayMs, annual: 365.24 * dayMs } as const;

/** Next payment date: whole periods after paymentDay until it lies in the future. */
export function nextPaymentDate(paymentDay: Date, annualPlan: boolean, now: Date = new Date()): Date {
  const period = annualPlan ? periodMs.annual : periodMs.monthly;
  const start = paymentDay.getTime();
  const elapsed = now.getTime() - start;
  const periods = elapsed < 0 ? 1 : Math.floor(elapsed / period) + 1;
  return new Date(start + periods * period);
}

// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, stubApi } from '#web/testing/render.tsx';
import { pendingPaymentPollMs } from '#web/features/accounts/accounts.api.ts';
import { OfflineInstructions } from './offline-instructions.tsx';

const voucher = {
  paymentId: 'MP-1',
  method: 'oxxo' as const,
  amountCents: 199_900,
  expiresAt: '2026-12-02T05:59:59.000Z',
  instructionsUrl: 'https://www.mercadopago.com.mx/payments/MP-1/ticket',
  clabe: null,
};
const pendingRow = { paymentId: 'MP-1', description: 'Premium anual (pago único)', amountCents: 199_900 };

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

/** The voucher on a page, with Mercado Pago's answer to "is it still pending?" chosen by the test. */
function showVoucher(stillPending: () => boolean) {
  const calls = stubApi({
    'GET /api/payments/config': () => ({ pesosMethods: ['oxxo', 'clabe'] }),
    'GET /api/profile/payments/pending': () => ({
      payments: stillPending() ? [{ ...pendingRow, currency: 'MXN', createdAt: '2026-11-29T04:00:00.000Z' }] : [],
    }),
  });
  renderWithApp(<OfflineInstructions payment={voucher} />);
  const count = (path: string) => calls.filter((call) => call.path === path).length;
  return {
    configReads: () => count('/api/payments/config'),
    pendingReads: () => count('/api/profile/payments/pending'),
  };
}

describe('the OXXO or SPEI voucher on our page', () => {
  it('asks whether the payment arrived every few seconds, and reads the page again once it did', async () => {
    let paid = false;
    const page = showVoucher(() => !paid);
    expect(await screen.findByRole('heading', { name: /^Paga en OXXO antes del / })).toBeTruthy();
    await vi.waitFor(() => expect(page.pendingReads()).toBe(1));
    await vi.advanceTimersByTimeAsync(pendingPaymentPollMs);
    await vi.waitFor(() => expect(page.pendingReads()).toBe(2));
    // still pending: nothing else is read again
    expect(page.configReads()).toBe(1);
    paid = true;
    await vi.advanceTimersByTimeAsync(pendingPaymentPollMs);
    // the payment left the list: every query of the page is read again (the profile then shows Premium)
    await vi.waitFor(() => expect(page.configReads()).toBe(2));
  });

  it('stops asking once nothing is pending', async () => {
    const page = showVoucher(() => false);
    await vi.waitFor(() => expect(page.configReads()).toBe(2));
    const reads = page.pendingReads();
    await vi.advanceTimersByTimeAsync(3 * pendingPaymentPollMs);
    expect(page.pendingReads()).toBe(reads);
  });
});

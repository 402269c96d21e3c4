import { createHmac, randomUUID } from 'node:crypto';
import type { FakePayment, FakeAuthorizedPayment, FakeState } from './simulated-mercadopago-state.ts';

/** A notification as Mercado Pago posts it: data.id and type in the query, signed headers, the JSON body. */
export type SignedNotification = {
  query: Record<string, string>;
  headers: Record<string, string>;
  rawBody: string;
};

/** What a test does on Mercado Pago's side: the payer pays or not, the seller refunds, notifications are signed. */
export function fakeControls(state: FakeState, webhookSecret: string) {
  const { preapprovals, payments, authorizedPayments, preferences, nextId } = state;

  /** Signs a notification of `topic` about `dataId`, as Mercado Pago sends it to the notification URL. */
  function notification(
    topic: 'payment' | 'subscription_preapproval' | 'subscription_authorized_payment',
    dataId: string,
    action = topic === 'payment' ? 'payment.updated' : 'updated',
  ): SignedNotification {
    const requestId = randomUUID();
    const ts = String(Math.floor(Date.now() / 1000));
    const v1 = createHmac('sha256', webhookSecret)
      .update(`id:${dataId.toLowerCase()};request-id:${requestId};ts:${ts};`)
      .digest('hex');
    const body = {
      id: Number(nextId()),
      live_mode: false,
      type: topic,
      date_created: new Date().toISOString(),
      user_id: 999,
      api_version: 'v1',
      action,
      data: { id: dataId },
    };
    return {
      query: { 'data.id': dataId, type: topic },
      headers: { 'content-type': 'application/json', 'x-signature': `ts=${ts},v1=${v1}`, 'x-request-id': requestId },
      rawBody: JSON.stringify(body),
    };
  }

  function findPayment(id: string) {
    const payment = payments.get(id);
    if (!payment) throw new Error(`the fake has no payment ${id}`);
    return payment;
  }

  return {
    notification,
    /** The payer authorizes the card on the hosted page: the first charge is made at once, as Mercado Pago does. */
    authorize(preapprovalId: string, outcome: 'approved' | 'rejected' = 'approved') {
      const pre = preapprovals.get(preapprovalId);
      if (!pre || pre.status !== 'pending') throw new Error(`preapproval ${preapprovalId} is not pending`);
      pre.status = 'authorized';
      return this.charge(preapprovalId, outcome);
    },
    /** A recurring charge of an authorized preapproval; returns the authorized payment's id. */
    charge(preapprovalId: string, outcome: 'approved' | 'rejected') {
      const pre = preapprovals.get(preapprovalId)!;
      const payment: FakePayment = {
        id: nextId(),
        status: outcome,
        status_detail: outcome === 'approved' ? 'accredited' : 'cc_rejected_insufficient_amount',
        payment_method_id: 'master',
        payment_type_id: 'credit_card',
        transaction_amount: pre.auto_recurring.transaction_amount,
        transaction_amount_refunded: 0,
        currency_id: pre.auto_recurring.currency_id,
        description: pre.reason,
        external_reference: pre.external_reference,
        date_of_expiration: null,
        payer_email: pre.payer_email,
        notification_url: null,
        date_created: new Date().toISOString(),
      };
      payments.set(payment.id, payment);
      const next = new Date();
      next.setUTCMonth(next.getUTCMonth() + pre.auto_recurring.frequency);
      if (outcome === 'approved') pre.next_payment_date = next.toISOString();
      const charge: FakeAuthorizedPayment = {
        id: nextId(),
        preapproval_id: pre.id,
        status: outcome === 'approved' ? 'processed' : 'recycling',
        transaction_amount: pre.auto_recurring.transaction_amount,
        currency_id: pre.auto_recurring.currency_id,
        payment_id: payment.id,
      };
      authorizedPayments.set(charge.id, charge);
      return { authorizedPaymentId: charge.id, paymentId: payment.id };
    },
    /** The buyer pays a Checkout Pro preference by card. */
    payPreference(preferenceId: string, outcome: 'approved' | 'rejected' = 'approved') {
      const preference = preferences.get(preferenceId);
      if (!preference) throw new Error(`the fake has no preference ${preferenceId}`);
      const item = (preference.body.items as { unit_price: number; title: string }[])[0]!;
      const payment: FakePayment = {
        id: nextId(),
        status: outcome,
        status_detail: outcome === 'approved' ? 'accredited' : 'cc_rejected_other_reason',
        payment_method_id: 'visa',
        payment_type_id: 'credit_card',
        transaction_amount: item.unit_price,
        transaction_amount_refunded: 0,
        currency_id: 'MXN',
        description: item.title,
        external_reference: String(preference.body.external_reference ?? '') || null,
        date_of_expiration: null,
        payer_email: String((preference.body.payer as { email?: string } | undefined)?.email ?? ''),
        notification_url: String(preference.body.notification_url ?? '') || null,
        date_created: new Date().toISOString(),
      };
      payments.set(payment.id, payment);
      return payment.id;
    },
    /** Money arrived at OXXO or by SPEI. */
    approve(paymentId: string) {
      const payment = findPayment(paymentId);
      if (payment.status !== 'pending') throw new Error(`payment ${paymentId} is ${payment.status}`);
      payment.status = 'approved';
      payment.status_detail = 'accredited';
    },
    /** The voucher or CLABE was not paid in time: Mercado Pago cancels the payment as expired. */
    expire(paymentId: string) {
      const payment = findPayment(paymentId);
      if (payment.status !== 'pending') throw new Error(`payment ${paymentId} is ${payment.status}`);
      payment.status = 'cancelled';
      payment.status_detail = 'expired';
    },
    /** The seller refunds what is left of an approved payment (all of it, or the rest after partial refunds). */
    refund(paymentId: string) {
      const payment = findPayment(paymentId);
      if (payment.status !== 'approved') throw new Error(`payment ${paymentId} is ${payment.status}`);
      const left = Math.round((payment.transaction_amount - payment.transaction_amount_refunded) * 100) / 100;
      payment.refunds = [...(payment.refunds ?? []), { id: nextId(), amount: left }];
      payment.status = 'refunded';
      payment.status_detail = 'refunded';
      payment.transaction_amount_refunded = payment.transaction_amount;
    },
    /**
     * The seller refunds `amount` pesos of an approved payment: Mercado Pago keeps it `approved` with
     * `status_detail: partially_refunded`, adds the refund to `refunds` and sums them in `transaction_amount_refunded`.
     */
    refundPart(paymentId: string, amount: number) {
      const payment = findPayment(paymentId);
      if (payment.status !== 'approved') throw new Error(`payment ${paymentId} is ${payment.status}`);
      const refunded = Math.round((payment.transaction_amount_refunded + amount) * 100) / 100;
      if (!(amount > 0) || refunded >= payment.transaction_amount)
        throw new Error(`a partial refund of ${amount} does not leave part of payment ${paymentId}`);
      payment.refunds = [...(payment.refunds ?? []), { id: nextId(), amount }];
      payment.status_detail = 'partially_refunded';
      payment.transaction_amount_refunded = refunded;
    },
    chargeBack(paymentId: string) {
      const payment = findPayment(paymentId);
      payment.status = 'charged_back';
      payment.status_detail = 'settled';
    },
    dispute(paymentId: string) {
      const payment = findPayment(paymentId);
      payment.status = 'in_mediation';
      payment.status_detail = 'in_mediation';
    },
    /** Pauses or cancels a preapproval from Mercado Pago's side (the payer's account, the seller's panel). */
    setPreapprovalStatus(preapprovalId: string, status: 'paused' | 'cancelled') {
      preapprovals.get(preapprovalId)!.status = status;
    },
  };
}

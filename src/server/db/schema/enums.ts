import { pgEnum } from 'drizzle-orm/pg-core';
import { accountTypes, paymentStatuses } from '#shared/accounts/accounts.rules.ts';
import { procedureTypes, species } from '#shared/catalog/catalog.rules.ts';
import { eventStatuses } from '#shared/events/events.rules.ts';
import { organizationTypes } from '#shared/organizations/organizations.rules.ts';
import { textColors } from '#shared/landing/landing.rules.ts';
import { classroomAccessTypes, classroomWarningKinds } from '#shared/classrooms/classrooms.rules.ts';
import { analyticsCategories } from '#shared/analytics/analytics.rules.ts';
import {
  paymentKinds,
  paymentProviders,
  paymentResults,
  plans,
  subscriptionStates,
} from '#shared/payments/payments.rules.ts';

export const accountTypeEnum = pgEnum('account_type', accountTypes);
export const paymentStatusEnum = pgEnum('payment_status', paymentStatuses);
export const procedureTypeEnum = pgEnum('procedure_type', procedureTypes);
export const speciesEnum = pgEnum('species', species);
export const eventStatusEnum = pgEnum('event_status', eventStatuses);
export const organizationTypeEnum = pgEnum('organization_type', organizationTypes);
export const textColorEnum = pgEnum('text_color', textColors);
export const classroomAccessTypeEnum = pgEnum('classroom_access_type', classroomAccessTypes);
export const classroomWarningKindEnum = pgEnum('classroom_warning_kind', classroomWarningKinds);
export const analyticsCategoryEnum = pgEnum('analytics_category', analyticsCategories);
export const planEnum = pgEnum('plan', plans);
export const paymentProviderEnum = pgEnum('payment_provider', paymentProviders);
export const subscriptionStateEnum = pgEnum('subscription_state', subscriptionStates);
export const paymentKindEnum = pgEnum('payment_kind', paymentKinds);
export const paymentResultEnum = pgEnum('payment_result', paymentResults);

import { escapeHtml, layoutMail } from '#server/services/mail-layout.ts';
import { formatUsd } from '#shared/payments/payments.schemas.ts';
import { planPriceCents } from '#shared/payments/payments.rules.ts';

/** updateAccountEmail's actionType (spec 1 §7). */
export type AccountMailAction = 'SIGNUP' | 'UPGRADE' | 'DOWNGRADE';

type AccountMailData = {
  name: string;
  accountType: string;
  annualPlan: boolean;
  /** Next payment date, or when Premium benefits end after a downgrade. */
  paymentDate: Date | null;
  publicUrl: string;
};

const longDate = (date: Date) =>
  new Intl.DateTimeFormat('es-MX', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);

const planText = (annual: boolean) =>
  annual
    ? `Premium anual (${formatUsd(planPriceCents.annual)})`
    : `Premium mensual (${formatUsd(planPriceCents.monthly)})`;

/** The account e-mails of sign-up, upgrade and downgrade. */
export function accountMail(action: AccountMailAction, data: AccountMailData) {
  const profileLink = `${data.publicUrl}/perfil`;
  const lines: Record<AccountMailAction, { subject: string; title: string; body: string[] }> = {
    SIGNUP: {
      subject: 'Bienvenido a CxVet',
      title: 'Bienvenido a CxVet',
      body: [
        `Tu cuenta ${data.accountType === 'Premium' ? planText(data.annualPlan) : 'Básica'} está lista.`,
        'Ya puedes ver los procedimientos gratuitos del catálogo y, cuando quieras, cambiar a Premium desde tu perfil.',
      ],
    },
    UPGRADE: {
      subject: 'Tu membresía CxVet ahora es Premium',
      title: 'Bienvenido a CxVet Premium',
      body: [
        `Tu membresía ahora es ${planText(data.annualPlan)}.`,
        data.paymentDate ? `Tu próxima fecha de pago es el ${longDate(data.paymentDate)}.` : '',
        'Ya tienes acceso a todo el catálogo, las guías en PDF y los diplomados.',
      ],
    },
    DOWNGRADE: {
      subject: 'Tu membresía CxVet cambiará a Básica',
      title: 'Cambio a membresía Básica',
      body: [
        'Recibimos tu solicitud de cambiar a la membresía Básica. No se harán más cobros.',
        data.paymentDate ? `Conservarás los beneficios Premium hasta el ${longDate(data.paymentDate)}.` : '',
        'Si cambias de opinión, puedes reactivar Premium desde tu perfil antes de esa fecha.',
      ],
    },
  };
  const { subject, title, body } = lines[action];
  const paragraphs = [`Hola ${data.name}:`, ...body.filter(Boolean)];
  return {
    subject,
    text: `${paragraphs.join('\n\n')}\n\nTu perfil: ${profileLink}`,
    html: layoutMail(
      title,
      `${paragraphs.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}\n<p><a href="${escapeHtml(profileLink)}">Ir a mi perfil</a></p>`,
    ),
  };
}

/** Sent once when a subscription payment fails; only a member who had paid before loses Premium. */
export function paymentFailedMail(data: { name: string; publicUrl: string; wasPremium: boolean }) {
  const paragraphs = [
    `Hola ${data.name}:`,
    data.wasPremium
      ? 'No se pudo realizar el pago de tu suscripción, tu membresía ha sido cambiada a básica.'
      : 'No se pudo realizar el pago de tu suscripción. Tu membresía sigue siendo Básica.',
    data.wasPremium
      ? 'Puedes volver a suscribirte a Premium desde tu perfil cuando quieras.'
      : 'Puedes intentarlo de nuevo desde tu perfil cuando quieras.',
  ];
  const link = `${data.publicUrl}/perfil`;
  return {
    subject: 'No se pudo realizar el pago de tu suscripción CxVet',
    text: `${paragraphs.join('\n\n')}\n\nTu perfil: ${link}`,
    html: layoutMail(
      'Pago no realizado',
      `${paragraphs.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}\n<p><a href="${escapeHtml(link)}">Ir a mi perfil</a></p>`,
    ),
  };
}

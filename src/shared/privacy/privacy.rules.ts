/** The mail preferences a member consents to (spec: promosCxVet / newsCxVet). */
export const consentKinds = ['promoMail', 'newsMail'] as const;
export type ConsentKind = (typeof consentKinds)[number];

/** Where a consent was given or withdrawn; stored as written, shown in the export. */
export type ConsentSource = 'registro' | 'perfil' | 'enlace de baja' | 'administrador' | 'eliminación de cuenta';

export const dataExportStatuses = ['PENDIENTE', 'LISTA', 'FALLIDA', 'EXPIRADA'] as const;

/** What happens to the member's certificates when the account is deleted. */
export const certificateChoices = ['keep', 'revoke'] as const;
export type CertificateChoice = (typeof certificateChoices)[number];

/** How long a finished export can be downloaded. */
export const dataExportLifetimeMs = 7 * 24 * 3_600_000;

/** The e-mail an anonymised account keeps: unique, and never deliverable (RFC 2606 reserves .invalid). */
export const anonymizedEmail = (userId: string) => `eliminada-${userId}@cuenta.invalid`;
export const anonymizedName = 'Cuenta eliminada';

import { createHash, randomBytes } from 'node:crypto';
import sanitizeHtml from 'sanitize-html';
import { credentialsV2, openBadgesV3 } from './contexts.ts';
import type { Credential } from './issuer.ts';

/** 131,072 entries: the Bitstring Status List minimum, so one revoked bit does not point at a member. */
export const statusListLength = 131_072;

export function statusListUrl(publicUrl: string, list: number): string {
  return new URL(`/api/credentials/status/${list}`, publicUrl).toString();
}

const plainText = (html: string) =>
  sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();

/** OB 3.0 IdentityObject: sha256 of the e-mail and a salt, so the holder can prove it and no one can read it. */
function hashedEmail(email: string) {
  const salt = randomBytes(16).toString('hex');
  const hash = createHash('sha256')
    .update(email.trim().toLowerCase() + salt)
    .digest('hex');
  return { type: 'IdentityObject', identityHash: `sha256$${hash}`, identityType: 'emailAddress', hashed: true, salt };
}

/** The unsigned OpenBadgeCredential of one certificate, from what the certificate froze at issue. */
export function openBadgeOf(input: {
  publicUrl: string;
  did: string;
  certificate: {
    verificationCode: string;
    diplomaId: string;
    diplomaTitle: string;
    holderName: string;
    issuerName: string;
    issuedAt: Date;
    completedAt: Date;
    statusListIndex: number;
  };
  diploma: { descriptionHtml: string; passThresholdPercent: number } | null;
  email: string;
}): Credential {
  const { certificate, publicUrl } = input;
  const list = Math.floor(certificate.statusListIndex / statusListLength);
  const listUrl = statusListUrl(publicUrl, list);
  const description = plainText(input.diploma?.descriptionHtml ?? '') || certificate.diplomaTitle;
  const threshold = input.diploma?.passThresholdPercent ?? 80;
  return {
    '@context': [credentialsV2, openBadgesV3],
    id: new URL(`/certificados/${certificate.verificationCode}`, publicUrl).toString(),
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    name: certificate.diplomaTitle,
    issuer: { id: input.did, type: ['Profile'], name: certificate.issuerName, url: publicUrl },
    validFrom: certificate.issuedAt.toISOString(),
    credentialSubject: {
      type: ['AchievementSubject'],
      name: certificate.holderName,
      activityEndDate: certificate.completedAt.toISOString().slice(0, 10),
      identifier: [hashedEmail(input.email)],
      achievement: {
        id: new URL(`/mis-diplomados/diplomado-preview/${certificate.diplomaId}`, publicUrl).toString(),
        type: ['Achievement'],
        achievementType: 'Diploma',
        name: certificate.diplomaTitle,
        description,
        criteria: {
          narrative: `Completar todas las lecciones del diplomado y aprobar sus exámenes con al menos ${threshold} % de aciertos.`,
        },
        creator: { id: input.did, type: ['Profile'], name: certificate.issuerName },
      },
    },
    credentialStatus: {
      id: `${listUrl}#${certificate.statusListIndex % statusListLength}`,
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex: String(certificate.statusListIndex % statusListLength),
      statusListCredential: listUrl,
    },
  };
}

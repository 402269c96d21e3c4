import type { QueryClient } from '@tanstack/react-query';
import { profileQuery } from '#web/features/accounts/accounts.api.ts';
import { UpgradeChoice } from '#web/features/accounts/components/lazy-upgrade-choice.ts';
import { myCertificatesQuery } from '#web/features/diplomas/member/diplomas.api.ts';
import { preloadableLazy } from '#web/lib/preloadable-lazy.tsx';

// Cards of /perfil that only some members see: their code (Radio groups, checkout; a table) stays off the others'.

/** 'Diplomados y constancias', for a Premium member with certificates. */
export const CertificatesCard = preloadableLazy(() =>
  import('#web/features/diplomas/member/components/certificates-card.tsx').then((module) => module.CertificatesCard),
);

/** The cards this member's profile shows, code and data, before the page renders: it paints once, complete. */
export async function loadProfileCards(queryClient: QueryClient): Promise<void> {
  const profile = await queryClient.fetchQuery(profileQuery).catch(() => null);
  if (!profile) return;
  // a chunk that failed to load is asked again when the card renders
  const ignore = () => undefined;
  await Promise.all([
    profile.membership.canUpgrade ? UpgradeChoice.preload().catch(ignore) : null,
    profile.membership.hasPremiumAccess && profile.certificates.length > 0
      ? Promise.all([CertificatesCard.preload().catch(ignore), queryClient.prefetchQuery(myCertificatesQuery)])
      : null,
  ]);
}

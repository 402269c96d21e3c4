import { Button } from '@mantine/core';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { manualPremiumMessages } from '#shared/membership/manual-premium.schemas.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { paths } from '#web/paths.ts';

const links = [
  { to: paths.adminManualPremium, label: 'Lista premium manual' },
  { to: paths.adminManualPremiumUpgrade, label: 'Actualizar a premium' },
  { to: paths.adminManualPremiumDowngrade, label: 'Quitar premium' },
];

/** The buttons between the three manual Premium pages; the current one is left out. */
export function ManualPremiumLinks({ current }: { current: string }) {
  return (
    <>
      {links
        .filter((link) => link.to !== current)
        .map((link) => (
          <Button key={link.to} component={Link} to={link.to} variant="default">
            {link.label}
          </Button>
        ))}
    </>
  );
}

/** Spec 3 §8: a failed manual-premium load shows the generic error modal. */
export function useManualPremiumLoadFailure(failed: boolean) {
  const { showError } = useErrorModal();
  useEffect(() => {
    if (failed) showError({ message: manualPremiumMessages.failed });
  }, [failed, showError]);
}

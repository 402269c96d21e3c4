import { useRef } from 'react';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { CookieConsentModal } from '#web/components/cookie-consent-modal.tsx';
import { NavigationOverlay } from '#web/components/page-loader.tsx';
import { MembershipCheckNotice } from '#web/features/accounts/components/membership-check-notice.tsx';
import { ExpiryWarningNotice } from '#web/features/classrooms/components/expiry-warning-notice.tsx';
import { TestModeBanner } from '#web/features/payments/test-mode-banner.tsx';
import classes from './app-layout.module.css';
import { SiteFooter } from './site-footer.tsx';
import { skipToMain, useRouteAnnouncer } from './route-announcer.ts';
import { SiteHeader } from './site-header.tsx';

export function AppLayout() {
  const navigation = useNavigation();
  const main = useRef<HTMLElement>(null);
  useRouteAnnouncer(main);

  return (
    <div className={classes.shell}>
      <TestModeBanner />
      <a href="#contenido" className="skip-link" onClick={(event) => skipToMain(event, main.current)}>
        Saltar al contenido
      </a>
      <SiteHeader />
      <main id="contenido" ref={main} tabIndex={-1} className={classes.main}>
        <Outlet />
      </main>
      <SiteFooter />
      <CookieConsentModal />
      <MembershipCheckNotice />
      <ExpiryWarningNotice />
      <NavigationOverlay visible={navigation.state === 'loading'} />
      <ScrollRestoration />
    </div>
  );
}

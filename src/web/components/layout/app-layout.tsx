import { lazy, Suspense, useRef } from 'react';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { CookieConsentBar, CookieConsentModal } from '#web/components/cookie-consent-modal.tsx';
import { NavigationOverlay } from '#web/components/page-loader.tsx';
import { useCurrentUser } from '#web/features/accounts/current-user.api.ts';
import { TestModeBanner } from '#web/features/payments/test-mode-banner.tsx';
import classes from './app-layout.module.css';
import { SiteFooter } from './site-footer.tsx';
import { skipToMain, useRouteAnnouncer } from './route-announcer.ts';
import { SiteHeader } from './site-header.tsx';

// a guest's pages never load the members' startup checks
const MemberNotices = lazy(() => import('./member-notices.tsx').then((m) => ({ default: m.MemberNotices })));

export function AppLayout() {
  const navigation = useNavigation();
  const { user } = useCurrentUser();
  const main = useRef<HTMLElement>(null);
  useRouteAnnouncer(main);

  return (
    <div className={classes.shell}>
      <TestModeBanner />
      <CookieConsentBar />
      <a href="#contenido" className="skip-link" onClick={(event) => skipToMain(event, main.current)}>
        Saltar al contenido
      </a>
      <SiteHeader />
      <main id="contenido" ref={main} tabIndex={-1} className={classes.main}>
        <Outlet />
      </main>
      <SiteFooter />
      <CookieConsentModal />
      {user && (
        <Suspense fallback={null}>
          <MemberNotices />
        </Suspense>
      )}
      <NavigationOverlay visible={navigation.state === 'loading'} />
      <ScrollRestoration />
    </div>
  );
}

import { Burger, Button, Container, Group, Text } from '@mantine/core';
import { useDisclosure, useHeadroom } from '@mantine/hooks';
import { lazy, Suspense, useState } from 'react';
import { Link, NavLink } from 'react-router';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { useCurrentUser, useLogout } from '#web/features/accounts/current-user.api.ts';
import { paths } from '#web/paths.ts';
import classes from './site-header.module.css';
import { accountLinks, mainLinks } from './site-links.ts';

// phones load the menu's drawer when it is first opened; desktops never do
const MobileNavDrawer = lazy(() => import('./mobile-nav-drawer.tsx').then((m) => ({ default: m.MobileNavDrawer })));

/** The brand link's style is the global `page-shell-brand`, shared with the bar the page's HTML paints (page-shell.ts). */
export function SiteHeader() {
  const { user } = useCurrentUser();
  const { pinned } = useHeadroom({ fixedAt: 120 });
  const [drawerUsed, setDrawerUsed] = useState(false);
  const [drawerOpened, drawer] = useDisclosure(false, { onOpen: () => setDrawerUsed(true) });
  const logout = useLogout();
  const { showAppError } = useErrorModal();

  const onLogout = () => {
    drawer.close();
    logout.mutate(undefined, { onError: (error) => showAppError(error) });
  };

  return (
    <header className={classes.header} data-hidden={pinned || drawerOpened ? undefined : true}>
      <Container size="xl">
        <div className={classes.topRow}>
          <Link to={paths.home} className="page-shell-brand" aria-label="CxVet, ir al inicio">
            CxVet
          </Link>
          <Group visibleFrom="md" gap="sm" component="nav" aria-label="Cuenta">
            {user && <Text fw={600}>Hola, {user.name}</Text>}
            {accountLinks(user).map((link) => (
              <Button
                key={link.to}
                component={Link}
                to={link.to}
                variant={link.to === paths.signUp ? 'filled' : 'subtle'}
                size="compact-md"
              >
                {link.label}
              </Button>
            ))}
            {user && (
              <Button variant="default" size="compact-md" onClick={onLogout} loading={logout.isPending}>
                Cerrar sesión
              </Button>
            )}
          </Group>
          <Burger
            hiddenFrom="md"
            opened={drawerOpened}
            onClick={drawer.toggle}
            aria-label={drawerOpened ? 'Cerrar menú' : 'Abrir menú'}
            aria-expanded={drawerOpened}
            aria-haspopup="dialog"
          />
        </div>
        <Group visibleFrom="md" component="nav" aria-label="Principal" className={classes.mainNav}>
          {mainLinks(user).map((link) => (
            <NavLink key={link.to} to={link.to} className={classes.link}>
              {link.label}
            </NavLink>
          ))}
        </Group>
      </Container>
      {drawerUsed && (
        <Suspense fallback={null}>
          <MobileNavDrawer user={user} opened={drawerOpened} onClose={drawer.close} onLogout={onLogout} />
        </Suspense>
      )}
    </header>
  );
}

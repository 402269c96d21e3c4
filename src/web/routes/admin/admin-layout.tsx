import { Anchor, AppShell, Burger, Button, Group, NavLink, ScrollArea, Text, useMantineTheme } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useRef } from 'react';
import { Link, Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import { skipToMain, useRouteAnnouncer } from '#web/components/layout/route-announcer.ts';
import { NavigationOverlay } from '#web/components/page-loader.tsx';
import { useLogout } from '#web/features/accounts/current-user.api.ts';
import { activeNavLink, adminNavLinks } from '#web/components/console/admin-nav.ts';
import { TestModeBanner } from '#web/features/payments/test-mode-banner.tsx';
import { BackupWarningBanner } from '#web/features/backups/backup-warning-banner.tsx';
import { paths } from '#web/paths.ts';

/** The console frame for every /admin route: top bar, side navigation (a drawer on phones) and the page. */
export function AdminLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const logout = useLogout();
  const active = activeNavLink(pathname);
  const main = useRef<HTMLElement>(null);
  useRouteAnnouncer(main, 'Admin');
  const theme = useMantineTheme();
  const isDesktop = useMediaQuery(`(min-width: ${theme.breakpoints.md})`, window.innerWidth >= 992);
  // the closed side menu of a phone is off-screen: none of its links may take focus
  const navHidden = !isDesktop && !opened;

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 240, breakpoint: 'md', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <a href="#contenido" className="skip-link" onClick={(event) => skipToMain(event, main.current)}>
        Saltar al contenido
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="md"
              size="sm"
              aria-label={opened ? 'Cerrar menú de administración' : 'Abrir menú de administración'}
              aria-expanded={opened}
              aria-controls="menu-administracion"
            />
            <Text fw={700} size="sm" visibleFrom="xs">
              Te damos la bienvenida, Administrador
            </Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Anchor component={Link} to={paths.index} size="sm">
              Ir al sitio
            </Anchor>
            <Button variant="default" size="compact-sm" onClick={() => logout.mutate()} loading={logout.isPending}>
              Cerrar sesión
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Administración" id="menu-administracion" inert={navHidden}>
        <Text fw={700} size="sm" hiddenFrom="xs" px="sm" py="xs">
          Te damos la bienvenida, Administrador
        </Text>
        <AppShell.Section grow component={ScrollArea}>
          {adminNavLinks.map((link) => (
            <NavLink
              key={link.to}
              component={Link}
              to={link.to}
              label={link.label}
              active={active === link.to}
              aria-current={active === link.to ? 'page' : undefined}
              onClick={close}
            />
          ))}
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id="contenido" ref={main} tabIndex={-1}>
        <TestModeBanner />
        <BackupWarningBanner pathname={pathname} />
        <Outlet />
      </AppShell.Main>
      <NavigationOverlay visible={navigation.state === 'loading'} />
      <ScrollRestoration />
    </AppShell>
  );
}

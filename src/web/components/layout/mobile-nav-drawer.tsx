import { Button, Divider, Drawer, Stack, Text } from '@mantine/core';
import { NavLink } from 'react-router';
import type { CurrentUser } from '#shared/accounts/accounts.schemas.ts';
import classes from './site-header.module.css';
import { accountLinks, mainLinks, type SiteLink } from './site-links.ts';

type Props = { user: CurrentUser | null; opened: boolean; onClose: () => void; onLogout: () => void };

export function MobileNavDrawer({ user, opened, onClose, onLogout }: Props) {
  const renderLinks = (links: SiteLink[]) =>
    links.map((link) => (
      <NavLink key={link.to} to={link.to} className={classes.drawerLink} onClick={onClose}>
        {link.label}
      </NavLink>
    ));

  return (
    <Drawer opened={opened} onClose={onClose} position="right" size="xs" title="Menú" hiddenFrom="md">
      {user && (
        <Text fw={600} mb="sm">
          Hola, {user.name}
        </Text>
      )}
      <Stack gap={2} component="nav" aria-label="Principal">
        {renderLinks(mainLinks(user))}
      </Stack>
      <Divider my="sm" />
      <Stack gap={2} component="nav" aria-label="Cuenta">
        {renderLinks(accountLinks(user))}
        {user && (
          <Button variant="default" onClick={onLogout} mt="xs">
            Cerrar sesión
          </Button>
        )}
      </Stack>
    </Drawer>
  );
}

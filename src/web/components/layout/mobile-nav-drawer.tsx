import { Button, Divider, Drawer, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { NavLink } from 'react-router';
import type { CurrentUser } from '#shared/accounts/accounts.schemas.ts';
import classes from './site-header.module.css';
import { focusPageHeading } from './route-announcer.ts';
import { accountLinks, mainLinks, type SiteLink } from './site-links.ts';

type Props = { user: CurrentUser | null; opened: boolean; onClose: () => void; onLogout: () => void };

export function MobileNavDrawer({ user, opened, onClose, onLogout }: Props) {
  // after following a link, focus goes to the new page's heading (route-announcer), not back to the burger
  const [followedLink, setFollowedLink] = useState(false);
  // Mantine returns the focus to the burger whenever returnFocus turns true while the menu is closed: the flag is
  // reset only as the menu opens again, in that same render
  if (opened && followedLink) setFollowedLink(false);
  const renderLinks = (links: SiteLink[]) =>
    links.map((link) => (
      <NavLink
        key={link.to}
        to={link.to}
        className={classes.drawerLink}
        onClick={(event) => {
          // a focused link inside the closing dialog would keep the announcer from moving focus to the heading
          event.currentTarget.blur();
          setFollowedLink(true);
          onClose();
        }}
      >
        {link.label}
      </NavLink>
    ));

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      onExitTransitionEnd={() => {
        if (followedLink) focusPageHeading();
      }}
      returnFocus={!followedLink}
      position="right"
      size="xs"
      title="Menú"
      hiddenFrom="md"
    >
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

import { Anchor, Container, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import classes from './site-footer.module.css';
import { footerLinks } from './site-links.ts';

export function SiteFooter() {
  return (
    <footer className={classes.footer}>
      <Container size="xl">
        <Group component="nav" aria-label="Enlaces del sitio" gap="lg" justify="center">
          {footerLinks.map((link) => (
            <Anchor key={link.to} component={Link} to={link.to} className={classes.link}>
              {link.label}
            </Anchor>
          ))}
        </Group>
        <Text ta="center" size="sm" mt="md" className={classes.copyright}>
          © {new Date().getFullYear()} CxVet. Cirugía veterinaria en línea.
        </Text>
      </Container>
    </footer>
  );
}

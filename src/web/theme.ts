import { createTheme, type CSSVariablesResolver } from '@mantine/core';

const closeButtonProps = { 'aria-label': 'Cerrar' };

export const theme = createTheme({
  primaryColor: 'blue',
  // Mantine's default shade 6 fails axe colour contrast on white (2.55:1).
  primaryShade: 8,
  defaultRadius: 'md',
  headings: { fontWeight: '700' },
  // Mantine's built-in accessible names are English. Plain objects rather than Modal.extend(…) and the like:
  // importing those components here would put PasswordInput and Drawer on every guest page (issue #13).
  components: {
    Modal: { defaultProps: { closeButtonProps } },
    Drawer: { defaultProps: { closeButtonProps } },
    // every toast's close button (notifications.show renders a Notification)
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Cerrar aviso' } } },
    PasswordInput: {
      // the show-password button is a Tab stop (Mantine leaves it out by default)
      defaultProps: {
        visibilityToggleFocusable: true,
        visibilityToggleButtonProps: { 'aria-label': 'Mostrar u ocultar contraseña' },
      },
    },
  },
});

/** Darker error, dimmed and yellow-alert text so all reach WCAG AA contrast. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // yellow light variants (warnings) write in yellow-8 on pale yellow: 2:1; dark amber reads at 6.5:1
    '--mantine-color-yellow-light-color': '#7a5200',
  },
  dark: {},
});

import { createTheme, type CSSVariablesResolver } from '@mantine/core';

const closeButtonProps = { 'aria-label': 'Cerrar' };

export const theme = createTheme({
  primaryColor: 'blue',
  // Mantine's default shade 6 fails axe colour contrast on white (2.55:1).
  primaryShade: 8,
  defaultRadius: 'md',
  headings: { fontWeight: '700' },
  // Mantine's built-in accessible names are English. Plain objects rather than Modal.extend(…) and the like:
  // importing those components here would put PasswordInput and Drawer on every guest page.
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
    // shade 9 on the pale light variants (status badges, alerts) reads at 3.8 to 4.5:1 on a striped row: darker still
    '--mantine-color-green-light-color': '#237032',
    // white on green-9 (#2b8a3e) is 4.4:1, under AA for a button's or badge's small bold text ('Activar', 'Visto')
    '--mantine-color-green-9': '#237032',
    '--mantine-color-teal-light-color': '#06654a',
    '--mantine-color-orange-light-color': '#a33a0c',
    '--mantine-color-red-light-color': '#a61e1e',
    // placeholders drawn as text (the date picker's) at 4.9:1 instead of gray-5's 2:1
    '--mantine-color-placeholder': '#6b7178',
  },
  dark: {},
});

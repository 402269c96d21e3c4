import { describe, expect, it } from 'vitest';
import { themeVariablesStyle } from '../../scripts/vite/mantine-theme-variables.ts';

describe("the theme's CSS variables, written once by the build (scripts/vite/mantine-theme-variables.ts)", () => {
  it('hold our theme and contrast fixes for the light scheme, as MantineProvider would render them', async () => {
    const style = await themeVariablesStyle();
    expect(style.startsWith('<style data-mantine-styles="true">:root[data-mantine-color-scheme="light"]')).toBe(true);
    // theme.ts: primary shade 8, darker error and dimmed text (WCAG AA)
    expect(style).toContain('--mantine-color-blue-filled: var(--mantine-color-blue-8)');
    expect(style).toContain('--mantine-color-error: var(--mantine-color-red-9)');
    expect(style).toContain('--mantine-color-dimmed: var(--mantine-color-gray-7)');
    expect(style).toContain('--mantine-color-yellow-light-color: #7a5200');
    // white on it reaches 4.5:1 for the filled 'Activar' button and the 'Visto' badge
    expect(style).toContain('--mantine-color-green-9: #237032');
    expect(style.endsWith('</style>')).toBe(true);
  });
});

import { testModeNoticeText } from '#shared/page-shell.ts';
import { usePaymentsConfig } from './payments.api.ts';

/**
 * A thin bar on every page while the server runs the simulated payment provider, so nobody takes
 * the demo checkout for a real one. Nothing shows while loading or with a real provider. Its classes are the ones
 * the page's HTML paints it with before the app's code arrives (src/shared/page-shell.ts, styles in global.css).
 */
export function TestModeBanner() {
  const config = usePaymentsConfig();
  if (config.data?.provider !== 'simulado') return null;
  return (
    <aside className="page-shell-notice" aria-label="Aviso de pagos">
      <p className="page-shell-notice-text">{testModeNoticeText}</p>
    </aside>
  );
}

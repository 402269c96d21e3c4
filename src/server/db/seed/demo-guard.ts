import type { AccountsService } from '#server/features/accounts/accounts.service.ts';
import { demoAccounts, demoPassword } from './demo-accounts.ts';

/**
 * A production start refuses to serve while a demo account still signs in with the published demo password: anyone
 * who read the README could sign in as its Admin.
 */
export async function assertNoDemoPasswords(accounts: Pick<AccountsService, 'emailsWithPassword'>): Promise<void> {
  const exposed = await accounts.emailsWithPassword(
    demoAccounts.map((account) => account.email),
    demoPassword,
  );
  if (exposed.length === 0) return;
  throw new Error(
    `en producción (NODE_ENV=production) estas cuentas de demostración siguen con la contraseña publicada ${demoPassword}: ` +
      `${exposed.join(', ')}. Inicia una vez sin NODE_ENV=production, entra con cada una y cambia su contraseña en ` +
      'Mi perfil › Usuario (o elimínalas desde Administración › Usuarios), y vuelve a iniciar en producción.',
  );
}

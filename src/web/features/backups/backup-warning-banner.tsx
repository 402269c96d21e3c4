import { Alert, Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '#web/paths.ts';
import { useBackups } from './backups.api.ts';
import { formatWhen } from './format.ts';

/** On every console page: the last backup failed or the last good one is older than two days (not on the Respaldos page itself). */
export function BackupWarningBanner({ pathname }: { pathname: string }) {
  const backups = useBackups();
  const warning = backups.data?.warning;
  if (pathname.toLowerCase() === paths.adminBackups || (warning !== 'failed' && warning !== 'stale')) return null;
  return (
    <Alert
      color={warning === 'failed' ? 'red' : 'yellow'}
      mb="md"
      title={warning === 'failed' ? 'El último respaldo falló' : 'El último respaldo tiene más de dos días'}
    >
      {backups.data?.lastSucceededAt ? `Último respaldo correcto: ${formatWhen(backups.data.lastSucceededAt)}. ` : ''}
      <Anchor component={Link} to={paths.adminBackups}>
        Ver respaldos
      </Anchor>
    </Alert>
  );
}

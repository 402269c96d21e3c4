import { Button } from '@mantine/core';
import { useState } from 'react';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { usersApi } from '#web/features/users/users.api.ts';

/** Downloads the users spreadsheet, showing progress and any error instead of a broken file. */
export function UsersReportButton() {
  const [loading, setLoading] = useState(false);
  const { showAppError } = useErrorModal();

  async function download() {
    setLoading(true);
    try {
      await usersApi.downloadReport();
    } catch (error) {
      showAppError(error);
    } finally {
      setLoading(false);
    }
  }

  return (
    <Button variant="default" onClick={download} loading={loading}>
      Descargar reporte
    </Button>
  );
}

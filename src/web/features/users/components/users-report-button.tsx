import { Button } from '@mantine/core';
import { useState } from 'react';
import { errorMessages } from '#shared/messages.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import { usersReportUrl } from '#web/features/users/users.api.ts';

/** The server's file name from Content-Disposition, or a dated fallback of the same shape. */
function fileNameOf(response: Response): string {
  const match = /filename="?([^";]+)"?/i.exec(response.headers.get('content-disposition') ?? '');
  return match?.[1] ?? `Usuarios-${new Date().toISOString().slice(0, 10)}.xlsx`;
}

/** Downloads the users spreadsheet, showing progress and any error instead of a broken file. */
export function UsersReportButton() {
  const [loading, setLoading] = useState(false);
  const { showAppError } = useErrorModal();

  async function download() {
    setLoading(true);
    try {
      const response = await fetch(usersReportUrl, { credentials: 'same-origin' });
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as { message?: string };
        throw new ApiError(response.status, { code: 'INTERNAL', message: body.message || errorMessages.INTERNAL.message });
      }
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = fileNameOf(response);
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
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

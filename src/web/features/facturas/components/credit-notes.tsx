import { Button, Group, Text } from '@mantine/core';
import { formatMxn } from '#shared/payments/payments.rules.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { downloadFile } from '#web/lib/api-client.ts';
import type { MyFacturas } from '../facturas.api.ts';

/** A note as the member sees it; the console also sees one Facturapi refused ('no_emitida') and why. */
type CreditNote = Omit<MyFacturas['payments'][number]['creditNotes'][number], 'state'> & {
  state: MyFacturas['payments'][number]['creditNotes'][number]['state'] | 'no_emitida';
  error?: string | null;
};

const stateTexts: Record<CreditNote['state'], string> = {
  no_emitida: ' · no emitida',
  en_proceso: ' · en proceso',
  emitida: '',
  cancelacion_pendiente: ' · cancelación pendiente',
  cancelada: ' · cancelada',
};

/** The notas de crédito of a payment's partial refunds, under its factura, each with its PDF and XML once issued. */
export function CreditNotes({ paymentId, notes }: { paymentId: string; notes: CreditNote[] }) {
  const { showAppError } = useErrorModal();
  const download = (note: CreditNote, format: 'pdf' | 'xml') =>
    void downloadFile(
      `/api/facturas/${paymentId}/credit-notes/${note.id}/${format}`,
      `nota-de-credito.${format}`,
    ).catch(showAppError);

  return notes.map((note) => {
    const amount = formatMxn(note.amountCents);
    return (
      <Group key={note.id} gap="xs" wrap="wrap">
        <Text span fz="sm">
          Nota de crédito por {amount}
          {stateTexts[note.state]}
          {note.state === 'no_emitida' && note.error ? `: ${note.error}` : ''}
        </Text>
        {note.state === 'emitida' &&
          (['pdf', 'xml'] as const).map((format) => (
            <Button
              key={format}
              size="compact-xs"
              variant="light"
              aria-label={`Descargar ${format.toUpperCase()} de la nota de crédito por ${amount}`}
              onClick={() => download(note, format)}
            >
              Descargar {format.toUpperCase()}
            </Button>
          ))}
      </Group>
    );
  });
}

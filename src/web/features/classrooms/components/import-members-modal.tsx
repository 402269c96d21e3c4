import {
  Alert,
  Badge,
  Button,
  FileButton,
  Group,
  Modal,
  ScrollArea,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
} from '@mantine/core';
import { countOf } from '#shared/text.ts';
import { useState } from 'react';
import type {
  ClassroomMember,
  ImportInput,
  ImportPreview,
  ImportStatus,
  ManagedImportPreview,
} from '#shared/classrooms/classrooms.schemas.ts';
import { EmailText } from '#web/components/email-text.tsx';
import { useErrorModal } from '#web/components/error-modal.tsx';
import stacked from '#web/components/stacked-table.module.css';

type Props = {
  opened: boolean;
  onClose: () => void;
  /** Asks the server which lines match (nothing is written). */
  preview: (source: ImportInput) => Promise<ImportPreview | ManagedImportPreview>;
  /** Adds the matched accounts in one step. */
  onAdd: (users: ClassroomMember[]) => Promise<void>;
  /** Where the added users go: 'al aula' (saved now) or 'a la selección' (saved with the form). */
  addLabel: string;
};

const statusColor: Record<ImportStatus | ManagedImportPreview['lines'][number]['status'], string> = {
  ok: 'green',
  refused: 'red',
  already: 'gray',
  duplicate: 'gray',
  unknown: 'red',
  outside: 'orange',
  invalid: 'red',
  blank: 'gray',
};

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** 'Importar usuarios': a CSV or xlsx file, or pasted addresses; shows line by line what will be added before adding. */
export function ImportMembersModal({ opened, onClose, preview, onAdd, addLabel }: Props) {
  const [text, setText] = useState('');
  const [result, setResult] = useState<ImportPreview | ManagedImportPreview | null>(null);
  const [onlyProblems, setOnlyProblems] = useState(false);
  const [checking, setChecking] = useState(false);
  const [adding, setAdding] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const { showAppError } = useErrorModal();

  function close() {
    setText('');
    setResult(null);
    setFileError(null);
    onClose();
  }

  async function check(source: ImportInput) {
    setChecking(true);
    try {
      setResult(await preview(source));
    } catch (error) {
      showAppError(error);
    } finally {
      setChecking(false);
    }
  }

  async function onFile(file: File | null) {
    if (!file) return;
    setFileError(null);
    const name = file.name.toLowerCase();
    const format = name.endsWith('.xlsx') ? 'xlsx' : name.endsWith('.csv') || name.endsWith('.txt') ? 'csv' : null;
    if (!format) {
      setFileError('El archivo debe ser CSV o xlsx.');
      return;
    }
    await check({ format, fileName: file.name, dataBase64: await readBase64(file) });
  }

  async function add() {
    if (!result) return;
    setAdding(true);
    try {
      await onAdd(result.matched);
      close();
    } catch (error) {
      showAppError(error);
    } finally {
      setAdding(false);
    }
  }

  const lines = result ? (onlyProblems ? result.lines.filter((line) => line.status !== 'ok') : result.lines) : [];
  const skipped = result ? result.lines.filter((line) => line.status !== 'ok' && line.text !== '').length : 0;

  return (
    <Modal opened={opened} onClose={close} title="Importar usuarios" size="xl" centered>
      {!result ? (
        <Stack>
          <Text size="sm">
            Sube un archivo CSV o xlsx con una dirección de correo por fila, o pega las direcciones (una por línea).
            Antes de agregar verás qué direcciones corresponden a una cuenta y cuáles no.
          </Text>
          <Group>
            <FileButton
              onChange={onFile}
              accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            >
              {(buttonProps) => (
                <Button {...buttonProps} variant="default" loading={checking}>
                  Seleccionar archivo CSV o xlsx
                </Button>
              )}
            </FileButton>
          </Group>
          {fileError ? (
            <Text c="red" size="sm">
              {fileError}
            </Text>
          ) : null}
          <Textarea
            label="Direcciones de correo"
            placeholder={'alumna@universidad.mx\nalumno@universidad.mx'}
            autosize
            minRows={5}
            maxRows={12}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancelar
            </Button>
            <Button onClick={() => check({ format: 'text', text })} disabled={!text.trim()} loading={checking}>
              Revisar direcciones
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Alert color={result.matched.length > 0 ? 'green' : 'yellow'} role="status">
            {`${result.matched.length === 1 ? 'Se agregará' : 'Se agregarán'} ${countOf(result.matched.length, 'usuario', 'usuarios')}`}
            {skipped > 0
              ? `; ${skipped} ${skipped === 1 ? 'línea no se agregará' : 'líneas no se agregarán'} (ver motivo).`
              : '.'}
          </Alert>
          <Switch
            label="Mostrar solo las líneas que no se agregarán"
            checked={onlyProblems}
            onChange={(event) => setOnlyProblems(event.currentTarget.checked)}
          />
          <ScrollArea.Autosize
            mah={360}
            type="auto"
            // a keyboard reaches every line of a long list
            viewportProps={{ tabIndex: 0, 'aria-label': 'Líneas revisadas' }}
          >
            <Table striped withTableBorder aria-label="Resultado de la importación" className={stacked.table}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Línea</Table.Th>
                  <Table.Th>Contenido</Table.Th>
                  <Table.Th>Resultado</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {lines.slice(0, 2000).map((line) => (
                  <Table.Tr key={line.line}>
                    <Table.Td data-label="Línea">{line.line}</Table.Td>
                    <Table.Td data-label="Contenido">
                      {line.text.includes('@') ? (
                        <EmailText email={line.text} />
                      ) : (
                        <span style={{ overflowWrap: 'anywhere' }}>{line.text || '—'}</span>
                      )}
                    </Table.Td>
                    <Table.Td data-label="Resultado">
                      <Badge color={statusColor[line.status]} variant="light" tt="none">
                        {line.reason}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setResult(null)}>
              Volver
            </Button>
            <Button onClick={add} disabled={result.matched.length === 0} loading={adding}>
              {`Agregar ${countOf(result.matched.length, 'usuario', 'usuarios')} ${addLabel}`}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

import { Button, FileButton, Group, Image, Input, Modal, Progress, Stack, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import { useController, type FieldPath, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { errorMessages } from '#shared/error-messages.ts';
import { messages } from '#shared/messages.ts';
import {
  acceptAttribute,
  displayFileName,
  fileExtension,
  kindByName,
  uploadFormats,
  uploadSizeLimits,
  uploadTargets,
  type UploadTarget,
} from '#shared/uploads/uploads.rules.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { ApiError } from '#web/lib/api-client.ts';
import type { PendingUploads } from './pending-uploads.ts';
import { mediaPath, uploadFile, type UploadHandle } from './upload-client.ts';

export type UploadFieldProps = {
  label: string;
  /** The spec's minimum-size hint, e.g. 'Tamaño mínimo recomendado: 1090x720 px'. */
  hint?: string;
  target: UploadTarget;
  recordId?: string;
  value: string | null;
  onChange: (key: string | null) => void;
  pending: PendingUploads;
  error?: string;
  required?: boolean;
  /** Shows the image (public folders only: surgery files are served by permission). */
  preview?: boolean;
};

const isImageKey = (key: string) => uploadFormats.image.extensions.includes(fileExtension(key));

/** Picks a file, uploads it with a progress modal and offers Descartar; only the stored key reaches the form. */
export function UploadField(props: UploadFieldProps) {
  const { label, hint, target, recordId, value, onChange, pending } = props;
  const [percent, setPercent] = useState<number | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const handle = useRef<UploadHandle | null>(null);
  const { showAppError } = useErrorModal();
  const kinds = uploadTargets[target].kinds;

  async function onFile(file: File | null) {
    if (!file) return;
    setLocalError(null);
    const kind = kindByName(file.name, kinds);
    if (!kind) {
      setLocalError(messages.invalidFileFormat);
      return;
    }
    if (file.size > uploadSizeLimits[kind]) {
      setLocalError(errorMessages.PAYLOAD_TOO_LARGE.message);
      return;
    }
    setPercent(0);
    handle.current = uploadFile({ target, recordId, file, onProgress: setPercent });
    try {
      const { key } = await handle.current.promise;
      pending.track(key);
      pending.release(value);
      onChange(key);
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      if (error instanceof ApiError && (error.code === 'FILE_FORMAT' || error.code === 'PAYLOAD_TOO_LARGE'))
        setLocalError(error.message);
      else if (error instanceof ApiError && error.code === 'CAPTIONS_INVALID')
        setLocalError(error.fields?.file ?? error.message);
      else showAppError(error);
    } finally {
      handle.current = null;
      setPercent(null);
    }
  }

  function discard() {
    pending.release(value);
    setLocalError(null);
    onChange(null);
  }

  return (
    <Input.Wrapper
      label={label}
      description={hint}
      error={localError ?? props.error}
      required={props.required}
      labelElement="div"
    >
      <Stack gap={6} mt={4}>
        <Group gap="sm" wrap="wrap">
          <FileButton onChange={onFile} accept={acceptAttribute(kinds)} inputProps={{ 'aria-label': label }}>
            {(buttonProps) => (
              <Button {...buttonProps} variant="default" size="sm" aria-label={`Seleccionar archivo: ${label}`}>
                Seleccionar archivo
              </Button>
            )}
          </FileButton>
          {value ? (
            <>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {displayFileName(value)}
              </Text>
              <Button variant="subtle" color="red" size="sm" onClick={discard} aria-label={`Descartar: ${label}`}>
                Descartar
              </Button>
            </>
          ) : (
            <Text size="sm" c="dimmed">
              Ningún archivo seleccionado
            </Text>
          )}
        </Group>
        {props.preview && value && isImageKey(value) ? (
          <Image
            src={mediaPath(value)}
            alt={`Vista previa: ${label}`}
            h={120}
            w="auto"
            fit="contain"
            radius="sm"
            style={{ alignSelf: 'flex-start' }}
          />
        ) : null}
      </Stack>
      <Modal
        opened={percent !== null}
        onClose={() => handle.current?.abort()}
        title="Subiendo archivo"
        centered
        withCloseButton={false}
        closeOnClickOutside={false}
      >
        <Stack>
          <Progress value={percent ?? 0} aria-label="Progreso de la carga" />
          <Text ta="center" fw={600}>
            {percent ?? 0}%
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => handle.current?.abort()}>
              Cancelar
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Input.Wrapper>
  );
}

/**
 * An UploadField bound to one field of a console form: it shows the field's error and clears it once a
 * file is chosen or discarded.
 */
export function FormUploadField<T extends FieldValues, TOutput>(
  props: Omit<UploadFieldProps, 'value' | 'onChange' | 'error'> & {
    form: UseFormReturn<T, unknown, TOutput>;
    name: FieldPath<T>;
    /** What the field holds without a file: '' where the schema wants a string, null where the file is optional. */
    empty?: '' | null;
    /** The error to clear on a change when the schema reports it on a parent (e.g. a video's captions). */
    clears?: FieldPath<T>;
  },
) {
  const { form, name, empty = '', clears, ...field } = props;
  const controller = useController({ control: form.control, name });
  return (
    <UploadField
      {...field}
      value={(controller.field.value as string | null) || null}
      onChange={(key) => {
        controller.field.onChange(key ?? empty);
        form.clearErrors(clears ? [name, clears] : name);
      }}
      error={controller.fieldState.error?.message}
    />
  );
}

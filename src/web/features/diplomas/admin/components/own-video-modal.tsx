import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Alert, Button, Group, Modal, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { Controller, useFieldArray, useForm, type FieldErrors } from 'react-hook-form';
import {
  ownVideoInputSchema,
  type AdminDiplomaVideo,
  type OwnVideoInput,
} from '#shared/diplomas/diplomas.admin.schemas.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { ChapterTimeInput } from '#web/components/console/chapter-time-input.tsx';
import { VideoRenditionStatus } from '#web/components/console/video-rendition-status.tsx';
import { FormUploadField, UploadField } from '#web/components/console/upload-field.tsx';
import { applyServerFieldErrors, newRecordId } from '#web/components/console/form-errors.ts';
import { usePendingUploads } from '#web/components/console/pending-uploads.ts';
import { useVideoActions } from '#web/features/diplomas/admin/diplomas.admin.api.ts';

type Props = { diplomaId: string; video: AdminDiplomaVideo | null; opened: boolean; onClose: () => void };

/** 'Crear video' / edit: title, description, video file with upload progress, markers, titled PDFs and images. */
export function OwnVideoModal(props: Props) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.video ? 'Editar video' : 'Crear video'}
      size="xl"
      centered
    >
      {props.opened ? <OwnVideoForm {...props} /> : null}
    </Modal>
  );
}

const listError = (errors: FieldErrors<OwnVideoInput>, name: 'chapters' | 'pdfs' | 'images') =>
  errors[name]?.message ?? errors[name]?.root?.message;

function OwnVideoForm({ diplomaId, video, onClose }: Props) {
  const [videoId] = useState(() => video?.id ?? newRecordId());
  const pending = usePendingUploads();
  const { save } = useVideoActions(diplomaId);
  const { showAppError } = useErrorModal();
  const form = useForm<OwnVideoInput>({
    resolver: zodResolver(ownVideoInputSchema),
    defaultValues: video
      ? {
          title: video.title,
          description: video.description,
          video: video.video ?? '',
          chapters: video.chapters,
          pdfs: video.pdfs,
          images: video.images,
        }
      : { title: '', description: '', video: '', chapters: [], pdfs: [], images: [] },
  });
  const { errors } = form.formState;
  const chapters = useFieldArray({ control: form.control, name: 'chapters' });
  const pdfs = useFieldArray({ control: form.control, name: 'pdfs' });
  const images = useFieldArray({ control: form.control, name: 'images' });

  const onSubmit = form.handleSubmit(async (input) => {
    try {
      await save.mutateAsync({ videoId, input });
      pending.commit();
      onClose();
    } catch (error) {
      if (!applyServerFieldErrors(error, form.setError)) showAppError(error);
    }
  });

  const fileList = (kind: 'pdfs' | 'images') => {
    const array = kind === 'pdfs' ? pdfs : images;
    const noun = kind === 'pdfs' ? 'PDF' : 'imagen';
    return (
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={3} fz="md">
            {kind === 'pdfs' ? 'PDFs' : 'Imágenes'}
          </Title>
          <Button size="compact-sm" variant="default" onClick={() => array.append({ title: '', file: '' })}>
            Agregar {noun}
          </Button>
        </Group>
        {listError(errors, kind) ? (
          <Alert color="red" variant="light" p="xs">
            {listError(errors, kind)}
          </Alert>
        ) : null}
        {array.fields.map((item, index) => (
          <Group key={item.id} align="flex-end" gap="sm" wrap="wrap">
            <TextInput
              label={`Título ${noun} ${index + 1}`}
              {...form.register(`${kind}.${index}.title`)}
              style={{ flex: '1 1 180px' }}
            />
            <Controller
              control={form.control}
              name={`${kind}.${index}.file`}
              render={({ field }) => (
                <UploadField
                  label={`Archivo ${noun} ${index + 1}`}
                  target={kind === 'pdfs' ? 'diploma-video-pdf' : 'diploma-video-image'}
                  recordId={diplomaId}
                  value={field.value || null}
                  onChange={(key) => field.onChange(key ?? '')}
                  pending={pending}
                />
              )}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              onClick={() => array.remove(index)}
              aria-label={`Quitar ${noun} ${index + 1}`}
            >
              ✕
            </ActionIcon>
          </Group>
        ))}
      </Stack>
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <TextInput label="Título" required {...form.register('title')} error={errors.title?.message} />
        <Textarea
          label="Descripción"
          required
          autosize
          minRows={3}
          {...form.register('description')}
          error={errors.description?.message}
        />
        <FormUploadField
          form={form}
          name="video"
          label="Archivo de video"
          hint="Formatos: mp4, webm, ogg."
          target="diploma-video"
          recordId={diplomaId}
          required
          pending={pending}
        />
        <Controller
          control={form.control}
          name="video"
          render={({ field }) =>
            field.value ? <VideoRenditionStatus videoKey={field.value} saved={field.value === video?.video} /> : <></>
          }
        />

        <Stack gap="xs">
          <Group justify="space-between">
            <Title order={3} fz="md">
              Marcadores
            </Title>
            <Button size="compact-sm" variant="default" onClick={() => chapters.append({ name: '', time: '' })}>
              Agregar marcador
            </Button>
          </Group>
          {listError(errors, 'chapters') ? (
            <Alert color="red" variant="light" p="xs">
              {listError(errors, 'chapters')}
            </Alert>
          ) : null}
          {chapters.fields.length === 0 ? (
            <Text size="sm" c="dimmed">
              Sin marcadores.
            </Text>
          ) : null}
          {chapters.fields.map((chapter, index) => (
            <Group key={chapter.id} align="flex-end" gap="sm" wrap="nowrap">
              <TextInput
                label={`Nombre del marcador ${index + 1}`}
                {...form.register(`chapters.${index}.name`)}
                style={{ flex: 1 }}
              />
              <Controller
                control={form.control}
                name={`chapters.${index}.time`}
                render={({ field }) => (
                  <ChapterTimeInput
                    label={`Tiempo ${index + 1} (h:mm:ss)`}
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    w={120}
                  />
                )}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                mb={4}
                onClick={() => chapters.remove(index)}
                aria-label={`Quitar marcador ${index + 1}`}
              >
                ✕
              </ActionIcon>
            </Group>
          ))}
        </Stack>

        {fileList('pdfs')}
        {fileList('images')}

        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancelar
          </Button>
          <Button type="submit" loading={save.isPending}>
            Guardar video
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

import {
  ActionIcon,
  Button,
  Group,
  Image,
  Modal,
  NumberInput,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import type { LandingInput, LandingSlideInput } from '#shared/landing/landing.admin.schemas.ts';
import { defaultSlideSeconds, textColors, type TextColor } from '#shared/landing/landing.rules.ts';
import { messages } from '#shared/messages.ts';
import { fileExtension, uploadFormats } from '#shared/uploads/uploads.rules.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { PageLoader } from '#web/components/page-loader.tsx';
import { useAdminLanding, useSaveLanding } from '#web/features/landing/landing.admin.api.ts';
import { AdminPage } from '#web/components/console/admin-page.tsx';
import { UploadField } from '#web/components/console/upload-field.tsx';
import { newRecordId } from '#web/components/console/form-errors.ts';
import { usePendingUploads } from '#web/components/console/pending-uploads.ts';
import { mediaPath } from '#web/components/console/upload-client.ts';
import { notify } from '#web/components/console/notify.ts';

const isVideoKey = (key: string) => uploadFormats.video.extensions.includes(fileExtension(key));

type Draft = { index: number | null; slide: LandingSlideInput; error?: string };

function SlidePreview({ slide }: { slide: LandingSlideInput }) {
  if (isVideoKey(slide.media)) {
    return (
      <video
        src={mediaPath(slide.media)}
        muted
        preload="metadata"
        aria-label={`Video ${slide.title || ''}`.trim()}
        style={{ width: 120, height: 68, objectFit: 'cover' }}
      />
    );
  }
  return (
    <Image
      src={mediaPath(slide.media)}
      alt={slide.title ? `Foto: ${slide.title}` : 'Foto'}
      w={120}
      h={68}
      fit="cover"
      radius="sm"
    />
  );
}

export function AdminLandingPhotosPage() {
  const landing = useAdminLanding();
  if (landing.isPending) return <PageLoader />;
  if (landing.isError) throw landing.error;
  return <LandingPhotosEditor stored={landing.data} />;
}

/** Edits a copy of the carousel; nothing changes on the site until Guardar. */
function LandingPhotosEditor({ stored }: { stored: LandingInput }) {
  const save = useSaveLanding();
  const pending = usePendingUploads();
  const { showAppError } = useErrorModal();
  const [state, setState] = useState<LandingInput>(stored);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saved, setSaved] = useState(false);
  const { slides } = state;

  const update = (next: Partial<LandingInput>) => {
    setSaved(false);
    setState({ ...state, ...next });
  };

  // spec 2 §4: reordering swaps neighbours
  function move(index: number, offset: -1 | 1) {
    const target = index + offset;
    if (target < 0 || target >= slides.length) return;
    const next = [...slides];
    [next[index], next[target]] = [next[target]!, next[index]!];
    update({ slides: next });
  }

  function removeAt(index: number) {
    if (index === 0) return;
    pending.release(slides[index]!.media);
    update({ slides: slides.filter((_, position) => position !== index) });
  }

  function openNew() {
    setDraft({
      index: null,
      slide: { id: newRecordId(), media: '', isVideo: false, title: '', subtitle: '', textColor: 'Blanco' },
    });
  }

  function closeDraft() {
    if (draft) {
      const original = draft.index === null ? null : slides[draft.index]!.media;
      if (draft.slide.media !== original) pending.release(draft.slide.media);
    }
    setDraft(null);
  }

  function acceptDraft() {
    if (!draft) return;
    if (!draft.slide.media) {
      setDraft({ ...draft, error: messages.requiredDot });
      return;
    }
    const isVideo = isVideoKey(draft.slide.media);
    // a video entry saves title and subtitle empty
    const slide = { ...draft.slide, isVideo, ...(isVideo ? { title: '', subtitle: '' } : {}) };
    if (draft.index === null) {
      update({ slides: [...slides, slide] });
    } else {
      const previous = slides[draft.index]!.media;
      if (previous !== slide.media) pending.release(previous);
      update({ slides: slides.map((current, position) => (position === draft.index ? slide : current)) });
    }
    setDraft(null);
  }

  async function onSave() {
    try {
      const result = await save.mutateAsync(state);
      pending.commit();
      setState(result);
      setSaved(true);
      notify.saved();
    } catch (error) {
      showAppError(error);
    }
  }

  function onCancel() {
    for (const slide of slides) {
      if (!stored.slides.some((original) => original.media === slide.media)) pending.release(slide.media);
    }
    setState(stored);
    setSaved(false);
  }

  const draftIsVideo = draft ? isVideoKey(draft.slide.media) : false;

  return (
    <AdminPage title="Fotos landing" actions={<Button onClick={openNew}>Agregar</Button>}>
      <Paper withBorder p="md">
        <Stack>
          <NumberInput
            label="Tiempo de cada foto (segundos)"
            min={1}
            max={600}
            value={state.slideSeconds}
            onChange={(value) => update({ slideSeconds: typeof value === 'number' ? value : defaultSlideSeconds })}
            maw={260}
          />
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="xs" aria-label="Fotos landing">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Subir</Table.Th>
                  <Table.Th>Bajar</Table.Th>
                  <Table.Th>Título</Table.Th>
                  <Table.Th>Vista previa</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Acciones</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {slides.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={5}>
                      <Text c="dimmed">{messages.emptyTable}</Text>
                    </Table.Td>
                  </Table.Tr>
                ) : null}
                {slides.map((slide, index) => {
                  const name =
                    slide.title ||
                    (slide.isVideo || isVideoKey(slide.media) ? `Video ${index + 1}` : `Foto ${index + 1}`);
                  return (
                    <Table.Tr key={slide.id} data-testid="landing-slide-row">
                      <Table.Td>
                        <ActionIcon
                          variant="default"
                          disabled={index === 0}
                          onClick={() => move(index, -1)}
                          aria-label={`Subir ${name}`}
                        >
                          ↑
                        </ActionIcon>
                      </Table.Td>
                      <Table.Td>
                        <ActionIcon
                          variant="default"
                          disabled={index === slides.length - 1}
                          onClick={() => move(index, 1)}
                          aria-label={`Bajar ${name}`}
                        >
                          ↓
                        </ActionIcon>
                      </Table.Td>
                      <Table.Td>
                        {slide.title || (
                          <Text c="dimmed" size="sm">
                            {name}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <SlidePreview slide={slide} />
                      </Table.Td>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Button
                            size="compact-sm"
                            variant="default"
                            onClick={() => setDraft({ index, slide })}
                            aria-label={`Editar ${name}`}
                          >
                            Editar
                          </Button>
                          {index > 0 ? (
                            <Button
                              size="compact-sm"
                              color="red"
                              variant="subtle"
                              onClick={() => removeAt(index)}
                              aria-label={`Quitar ${name}`}
                            >
                              Quitar
                            </Button>
                          ) : null}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {saved ? (
            <Text c="green.9" role="status">
              Cambios guardados.
            </Text>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onCancel}>
              Cancelar
            </Button>
            <Button onClick={onSave} loading={save.isPending}>
              Guardar
            </Button>
          </Group>
        </Stack>
      </Paper>

      <Modal
        opened={draft !== null}
        onClose={closeDraft}
        title={draft?.index === null ? 'Agregar foto o video' : 'Editar foto o video'}
        centered
        size="lg"
      >
        {draft ? (
          <Stack>
            <UploadField
              label="Imagen o video"
              hint="Imágenes: jpeg, jpg, png. Videos: mp4, webm, ogg."
              target="landing-media"
              required
              preview
              value={draft.slide.media || null}
              onChange={(key) => setDraft({ ...draft, error: undefined, slide: { ...draft.slide, media: key ?? '' } })}
              pending={pending}
              error={draft.error}
            />
            <TextInput
              label="Título"
              disabled={draftIsVideo}
              value={draftIsVideo ? '' : draft.slide.title}
              onChange={(event) => setDraft({ ...draft, slide: { ...draft.slide, title: event.currentTarget.value } })}
            />
            <TextInput
              label="Subtítulo"
              disabled={draftIsVideo}
              value={draftIsVideo ? '' : draft.slide.subtitle}
              onChange={(event) =>
                setDraft({ ...draft, slide: { ...draft.slide, subtitle: event.currentTarget.value } })
              }
            />
            <Select
              label="Color del texto"
              data={[...textColors]}
              value={draft.slide.textColor}
              allowDeselect={false}
              onChange={(value) =>
                setDraft({ ...draft, slide: { ...draft.slide, textColor: (value ?? 'Blanco') as TextColor } })
              }
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={closeDraft}>
                Cancelar
              </Button>
              <Button onClick={acceptDraft}>Aceptar</Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </AdminPage>
  );
}

import { Anchor, Button, Group, Image, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { CourseItem } from '#shared/diplomas/diplomas.schemas.ts';
import { formatChapterTime } from '#shared/catalog/catalog.rules.ts';
import { useErrorModal } from '#web/components/error-modal.tsx';
import { href } from '#web/paths.ts';
import { useCompleteVideo } from '#web/features/diplomas/member/diplomas.api.ts';
import { PlaybackStoppedAlert } from '#web/features/viewing/playback-stopped-alert.tsx';
import { useMediaRecovery } from '#web/features/viewing/use-media-recovery.ts';
import { watchedShare } from '#shared/watching/watched-time.rules.ts';
import { useDiplomaWatching } from '#web/features/diplomas/member/use-diploma-watching.ts';

type CourseVideo = Extract<CourseItem, { type: 'video' }>;

/**
 * Streams the HLS ladder once it exists (hls.js from our bundle, where Media Source is there); the file in src stays the
 * fallback. A ladder that turns up (or a URL that changes) while the member is already watching waits for the next
 * visit: attaching hls.js to a playing video starts it over and loses what was being watched.
 */
function useHlsWhenReady(element: HTMLVideoElement | null, offered: string | null) {
  const [hlsUrl, setHlsUrl] = useState(offered);
  if (offered !== hlsUrl && !(element && element.currentTime > 0)) setHlsUrl(offered);
  useEffect(() => {
    if (!element || !hlsUrl) return;
    let destroy = () => {};
    let cancelled = false;
    void import('hls.js/light').then(({ default: Hls }) => {
      if (cancelled || !Hls.isSupported()) return;
      const hls = new Hls();
      hls.loadSource(hlsUrl);
      hls.attachMedia(element);
      destroy = () => hls.destroy();
    });
    return () => {
      cancelled = true;
      destroy();
    };
  }, [element, hlsUrl]);
}

/** A diploma video: its own file with markers, PDFs and images, or a linked catalogue procedure with its guide. */
export function VideoItem({
  diplomaId,
  video,
  viewingToken,
}: {
  diplomaId: string;
  video: CourseVideo;
  /** The device's viewing token: only the device holding it reports what it plays. */
  viewingToken: string | null;
}) {
  const player = useRef<HTMLVideoElement>(null);
  const [element, setElement] = useState<HTMLVideoElement | null>(null);
  const complete = useCompleteVideo(diplomaId);
  const { showAppError } = useErrorModal();
  useHlsWhenReady(element, video.hlsUrl);
  // the file itself comes by a signed URL on object storage, which expires during a long video
  const recovery = useMediaRecovery({ media: element });
  useDiplomaWatching(diplomaId, video.id, video.videoUrl ? viewingToken : null, element);
  const markDone = () => {
    if (!video.completed && !complete.isPending) complete.mutate(video.id, { onError: (error) => showAppError(error) });
  };

  return (
    <Stack gap="sm">
      {video.description && <Text size="sm">{video.description}</Text>}
      {video.videoUrl && (
        <video
          ref={(node) => {
            player.current = node;
            setElement(node);
          }}
          src={recovery.sourceOf(video.videoUrl)}
          poster={video.posterUrl ?? undefined}
          controls
          preload="metadata"
          style={{ width: '100%', borderRadius: 8, background: '#000' }}
        >
          <track kind="captions" />
        </video>
      )}
      {recovery.failed && <PlaybackStoppedAlert onRetry={recovery.retry} />}
      {video.procedureId && (
        <Group gap="md">
          <Anchor component={Link} to={href.procedure(video.procedureId)}>
            Ver el video del procedimiento
          </Anchor>
          {video.guidePdfUrl && (
            <Anchor href={video.guidePdfUrl} target="_blank" rel="noopener">
              Guía en PDF
            </Anchor>
          )}
        </Group>
      )}
      {video.chapters.length > 0 && (
        <Stack gap={4}>
          <Text fw={600} size="sm">
            Secciones
          </Text>
          <Group gap="xs">
            {video.chapters.map((chapter) => (
              <Button
                key={`${chapter.timeSeconds}-${chapter.name}`}
                size="compact-sm"
                variant="light"
                onClick={() => {
                  if (player.current) {
                    player.current.currentTime = chapter.timeSeconds;
                    void player.current.play().catch(() => {});
                  }
                }}
              >
                {formatChapterTime(chapter.timeSeconds)} {chapter.name}
              </Button>
            ))}
          </Group>
        </Stack>
      )}
      {video.pdfs.length > 0 && (
        <Stack gap={4}>
          <Text fw={600} size="sm">
            Documentos
          </Text>
          {video.pdfs.map((pdf) => (
            <Anchor key={pdf.url} href={pdf.url} target="_blank" rel="noopener" size="sm">
              {pdf.title}
            </Anchor>
          ))}
        </Stack>
      )}
      {video.images.length > 0 && (
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          {video.images.map((image) => (
            <Anchor key={image.url} href={image.url} download title={image.title}>
              <Image src={image.url} alt={image.title} radius="sm" />
            </Anchor>
          ))}
        </SimpleGrid>
      )}
      {video.completedBy === 'watching' && (
        <Stack gap={4}>
          <Progress value={video.watchedPercent} size="sm" aria-label="Parte del video que has visto" />
          <Text size="sm" data-testid="video-watched-share">
            Has visto el {video.watchedPercent} % de este video.
            {!video.completed &&
              (video.procedureId
                ? ` Se completa cuando ves al menos el ${watchedShare * 100} % del procedimiento.`
                : ` Se completa cuando ves al menos el ${watchedShare * 100} %.`)}
          </Text>
        </Stack>
      )}
      {video.completed ? (
        <Text c="green.8" fw={600} size="sm">
          Video completado
        </Text>
      ) : (
        video.completedBy === 'marking' && (
          <Button variant="light" onClick={markDone} loading={complete.isPending} w={{ base: '100%', sm: 'auto' }}>
            Marcar como completado
          </Button>
        )
      )}
    </Stack>
  );
}

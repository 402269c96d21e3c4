import { Button, Stack, Switch, Text, Title, UnstyledButton } from '@mantine/core';
import type { MediaPlayerInstance } from '@vidstack/react';
import { useLocalStorage } from '@mantine/hooks';
import { lazy, Suspense, useImperativeHandle, useState, type ComponentProps, type Ref } from 'react';
import { formatChapterTime } from '#shared/catalog/catalog.rules.ts';
import type { CaptionTrack } from '#shared/catalog/catalog.schemas.ts';
import { storageKeys } from '#web/lib/storage-keys.ts';
import type { PlayRequest } from './procedure-video.tsx';
import classes from './procedure-player.module.css';

type Chapter = { name: string; timeSeconds: number };

/** What the page may ask of the player before it exists (resume positions). */
export type PlayerControls = { playFrom: (seconds: number) => void };

// Vidstack, its styles and hls.js load when the person asks to play, not with the page
const loadVideo = () => import('./procedure-video.tsx');
const loadHls = () => import('hls.js/light');
const ProcedureVideo = lazy(() => loadVideo().then((module) => ({ default: module.ProcedureVideo })));
// with a ladder, hls.js is fetched beside the player rather than after it, and handed to it
const ProcedureVideoWithHls = lazy(() =>
  Promise.all([loadVideo(), loadHls()]).then(([module, hls]) => ({
    default: (props: ComponentProps<typeof module.ProcedureVideo>) => (
      <module.ProcedureVideo {...props} hls={hls.default} />
    ),
  })),
);

/**
 * The procedure's video with the chapters as the 'Secciones navegables' list (and as a WebVTT track in the
 * player) and a captions menu. Until the person plays, seeks or resumes, a poster with a play button stands in
 * the player's box.
 */
export function ProcedurePlayer(props: {
  src: string;
  /** The HLS master playlist (same query as src); src stays the fallback where HLS cannot play. */
  hlsSrc?: string | null;
  title: string;
  poster?: string | null;
  chapters: Chapter[];
  captions?: CaptionTrack[];
  /** Lets the page follow the player once it exists. */
  playerRef?: Ref<MediaPlayerInstance>;
  /** Lets the page start or seek the player, which mounts it first when needed (resume positions). */
  controlsRef?: Ref<PlayerControls>;
  /** /media said another device took the viewing: the page shows its notice instead of retrying. */
  onViewingReplaced?: () => void;
}) {
  const { title, poster = null, chapters, captions = [] } = props;
  // null until the person plays, seeks or resumes; each request is a new object the player acts on
  const [request, setRequest] = useState<PlayRequest | null>(null);
  // a ladder that turns up (the page read again) once the player is on waits for the next visit: switching the
  // player to it would start the video over and lose what was being watched
  const [hlsSrc, setHlsSrc] = useState(props.hlsSrc ?? null);
  if (!request && (props.hlsSrc ?? null) !== hlsSrc) setHlsSrc(props.hlsSrc ?? null);
  const [dataSaver, setDataSaver] = useLocalStorage({
    key: storageKeys.dataSaver,
    defaultValue: false,
    getInitialValueInEffect: false,
  });

  const playFrom = (seconds: number | null, focus: boolean) => setRequest({ at: seconds, focus });
  const Video = hlsSrc ? ProcedureVideoWithHls : ProcedureVideo;
  // the control that asked (the resume button) goes away: the focus moves into the player
  useImperativeHandle(props.controlsRef, () => ({ playFrom: (seconds: number) => playFrom(seconds, true) }));

  return (
    <Stack gap="lg">
      {request ? (
        <Suspense fallback={<PlayerFacade poster={poster} loading />}>
          <Video
            src={props.src}
            hlsSrc={hlsSrc}
            title={title}
            poster={poster}
            chapters={chapters}
            captions={captions}
            dataSaver={dataSaver}
            request={request}
            playerRef={props.playerRef}
            onViewingReplaced={props.onViewingReplaced}
          />
        </Suspense>
      ) : (
        <PlayerFacade
          poster={poster}
          onPlay={() => playFrom(null, true)}
          onIntent={() => void (hlsSrc ? Promise.all([loadVideo(), loadHls()]) : loadVideo())}
        />
      )}
      {hlsSrc && (
        <Switch
          label="Ahorro de datos"
          description="Reproduce la calidad más baja en este dispositivo para gastar menos datos móviles."
          checked={dataSaver}
          onChange={(event) => setDataSaver(event.currentTarget.checked)}
        />
      )}
      {chapters.length > 0 && (
        <section aria-labelledby="secciones-navegables">
          <Title order={2} size="h4" id="secciones-navegables" mb="xs">
            Secciones navegables
          </Title>
          <ol className={classes.chapters}>
            {chapters.map((chapter) => (
              <li key={`${chapter.timeSeconds}-${chapter.name}`}>
                <UnstyledButton className={classes.chapter} onClick={() => playFrom(chapter.timeSeconds, false)}>
                  <Text component="span" ff="monospace" fw={700} c="blue.9">
                    {formatChapterTime(chapter.timeSeconds)}
                  </Text>
                  <Text component="span">{chapter.name}</Text>
                </UnstyledButton>
              </li>
            ))}
          </ol>
        </section>
      )}
    </Stack>
  );
}

/** The poster in the player's box with a play button; pointing at it or focusing it fetches the player early. */
function PlayerFacade(props: { poster: string | null; onPlay?: () => void; onIntent?: () => void; loading?: boolean }) {
  const prefetch = props.onIntent;
  return (
    <div className={`${classes.player} ${classes.facade}`}>
      {props.poster && (
        <img className={classes.poster} src={props.poster} alt="" fetchPriority="high" decoding="async" />
      )}
      <button
        type="button"
        className={classes.play}
        aria-label="Reproducir"
        aria-busy={props.loading || undefined}
        disabled={props.loading}
        onClick={props.onPlay}
        onPointerEnter={prefetch}
        onTouchStart={prefetch}
        onFocus={prefetch}
      >
        <span className={classes.playIcon} data-loading={props.loading || undefined} aria-hidden>
          <svg viewBox="0 0 24 24" width="32" height="32" fill="currentColor">
            <path d="M8 5.5v13a1 1 0 0 0 1.52.85l10.4-6.5a1 1 0 0 0 0-1.7L9.52 4.65A1 1 0 0 0 8 5.5Z" />
          </svg>
        </span>
      </button>
    </div>
  );
}

export function ReplacedNotice(props: { message: string; label: string; onUseHere: () => void; loading: boolean }) {
  return (
    <Stack className={classes.replaced} align="center" justify="center" gap="md" role="alert" p="lg">
      <Text ta="center" fw={600} c="white">
        {props.message}
      </Text>
      <Button onClick={props.onUseHere} loading={props.loading} color="white" c="blue.9">
        {props.label}
      </Button>
    </Stack>
  );
}

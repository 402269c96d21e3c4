import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { Course, VideoWatching } from '#shared/diplomas/diplomas.schemas.ts';
import type { SavePosition } from '#shared/watching/watching.schemas.ts';
import { saveEverySeconds } from '#shared/watching/watching.rules.ts';
import { api, ApiError } from '#web/lib/api-client.ts';
import { diplomaKeys } from './diplomas.api.ts';

/**
 * Reports what a member plays of a diploma's own video (every few seconds while playing, on play, pause,
 * seek and end), so the server can add up the watched time that completes it. Only the device holding
 * `token` reports; the watched share on the page follows each answer.
 */
export function useDiplomaWatching(
  diplomaId: string,
  videoId: string,
  token: string | null,
  media: HTMLVideoElement | null,
) {
  const queryClient = useQueryClient();
  const completedRef = useRef(false);

  useEffect(() => {
    if (!token || !media) return;
    const url = `/api/diplomas/${encodeURIComponent(diplomaId)}/videos/${encodeURIComponent(videoId)}/position`;
    let stopped = false;

    const apply = (result: VideoWatching) => {
      queryClient.setQueryData<Course>(diplomaKeys.course(diplomaId), (course) =>
        course
          ? {
              ...course,
              items: course.items.map((item) =>
                item.type === 'video' && item.id === videoId
                  ? { ...item, watchedPercent: Math.max(item.watchedPercent, result.watchedPercent) }
                  : item,
              ),
            }
          : course,
      );
      // completing a video opens the next item and may finish the diploma: the whole course is read again
      if (result.completed && !completedRef.current) {
        completedRef.current = true;
        void Promise.all([
          queryClient.invalidateQueries({ queryKey: diplomaKeys.course(diplomaId) }),
          queryClient.invalidateQueries({ queryKey: diplomaKeys.list() }),
        ]);
      }
    };

    const send = (startsSpan: boolean, position = media.currentTime) => {
      const duration = media.duration;
      if (stopped || !(duration > 0) || !Number.isFinite(duration)) return;
      const body: SavePosition = {
        positionSeconds: Math.min(position, duration),
        durationSeconds: duration,
        viewingToken: token,
        startsSpan,
      };
      api
        .post<VideoWatching>(url, body, { keepalive: true })
        .then(apply)
        .catch((error: unknown) => {
          const status = error instanceof ApiError ? error.status : 0;
          // another device took the video, or the member lost the course: this one stops reporting
          if (status === 409 || status === 403 || status === 401 || status === 404) stopped = true;
        });
    };

    // at 'seeking' currentTime is already the target: what was played ends where playback last was
    let playedUpTo = media.currentTime;
    const onTime = () => {
      if (!media.seeking) playedUpTo = media.currentTime;
    };
    const onPlaying = () => send(true);
    const onSeeking = () => send(false, playedUpTo);
    const onSeeked = () => send(true);
    const onStop = () => send(false);
    media.addEventListener('timeupdate', onTime);
    media.addEventListener('playing', onPlaying);
    media.addEventListener('seeking', onSeeking);
    media.addEventListener('seeked', onSeeked);
    media.addEventListener('pause', onStop);
    media.addEventListener('ended', onStop);
    const timer = window.setInterval(() => {
      if (!media.paused && !media.seeking) send(false);
    }, saveEverySeconds * 1000);
    return () => {
      if (!media.paused) send(false);
      window.clearInterval(timer);
      media.removeEventListener('timeupdate', onTime);
      media.removeEventListener('playing', onPlaying);
      media.removeEventListener('seeking', onSeeking);
      media.removeEventListener('seeked', onSeeked);
      media.removeEventListener('pause', onStop);
      media.removeEventListener('ended', onStop);
    };
  }, [diplomaId, videoId, token, media, queryClient]);
}

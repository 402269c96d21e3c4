import { Box, Button } from '@mantine/core';
import type { MediaPlayerInstance } from '@vidstack/react';
import { useState } from 'react';
import { resumeLabel, resumePoint } from '#shared/watching/watching.rules.ts';
import { useProcedureProgress } from '#web/features/watching/watching.api.ts';
import { useWatchProgress } from '../use-watch-progress.ts';
import FavoriteButton from '../favorite-button.tsx';

// the heart's size, kept while it loads so the title does not move
const heartSize = 34;

/** The procedure page's heart, for signed-in members. */
export function ProcedureFavorite({ procedureId, procedureName }: { procedureId: string; procedureName: string }) {
  const progress = useProcedureProgress(procedureId, true);
  if (!progress.data) return <Box w={heartSize} h={heartSize} />;
  return (
    <FavoriteButton procedureId={procedureId} procedureName={procedureName} isFavorite={progress.data.isFavorite} />
  );
}

/**
 * Saves the member's place while the full video plays and offers 'Continuar desde …' where they left it;
 * `onResume` starts the player there, mounting it first when the person has not played yet.
 */
export function WatchProgress(props: {
  procedureId: string;
  token: string;
  player: MediaPlayerInstance | null;
  onResume: (seconds: number) => void;
}) {
  const { procedureId, token, player, onResume } = props;
  useWatchProgress(procedureId, token, player);
  const progress = useProcedureProgress(procedureId, true);
  const [used, setUsed] = useState(false);
  const point = resumePoint(
    progress.data?.positionSeconds != null && progress.data.durationSeconds != null
      ? { positionSeconds: progress.data.positionSeconds, durationSeconds: progress.data.durationSeconds }
      : null,
  );
  if (point === null || used) return null;
  return (
    <Button
      variant="light"
      onClick={() => {
        setUsed(true);
        onResume(point);
      }}
    >
      {resumeLabel(point)}
    </Button>
  );
}

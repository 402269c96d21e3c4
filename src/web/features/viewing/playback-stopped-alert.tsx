import { Alert, Button } from '@mantine/core';
import { playbackRetryLabel, playbackStoppedMessage } from './media-recovery.ts';

/** What a player shows once it gave up resuming after a media error (decision 018), with a button to try again. */
export function PlaybackStoppedAlert({ onRetry }: { onRetry: () => void }) {
  return (
    <Alert color="red" role="alert">
      {playbackStoppedMessage}
      <Button variant="subtle" onClick={onRetry} ml="sm" size="compact-sm">
        {playbackRetryLabel}
      </Button>
    </Alert>
  );
}

import { Button } from '@mantine/core';

/**
 * Stops or restarts a carousel's automatic advance; shown only when it can advance. A round Button rather than
 * ActionIcon: the home page already loads Button, and ActionIcon (with its group components and stylesheet) was a
 * file of its own on the home page for this button alone.
 */
export function CarouselPauseButton(props: {
  stopped: boolean;
  onToggle: () => void;
  what: string;
  className?: string;
}) {
  const label = props.stopped ? `Reanudar ${props.what}` : `Pausar ${props.what}`;
  return (
    <Button
      variant="default"
      radius="xl"
      w={36}
      h={36}
      p={0}
      onClick={props.onToggle}
      aria-label={label}
      title={label}
      className={props.className}
    >
      {props.stopped ? (
        <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden focusable="false">
          <path d="M4 2.5v11l9-5.5z" fill="currentColor" />
        </svg>
      ) : (
        <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden focusable="false">
          <path d="M4 2.5h3v11H4zM9 2.5h3v11H9z" fill="currentColor" />
        </svg>
      )}
    </Button>
  );
}

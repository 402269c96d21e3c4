import { Button, Group, Text } from '@mantine/core';
import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import classes from './native-dialog.module.css';

/**
 * A native modal <dialog> drawn like Mantine's centred Modal, with a title, a text and one button: the cookie notice
 * and the error modal. Mantine's Modal brought its transition, portal, focus trap and scroll lock onto every guest
 * page; the browser's dialog already keeps focus inside, makes the page behind it inert and gives it the
 * dialog role. It is shown while `opened` (before the first paint), and `onBrowserClose` hears Escape or the browser
 * closing it.
 */
export function NativeModal(props: {
  opened: boolean;
  title: ReactNode;
  text: ReactNode;
  textSize?: 'sm';
  button: string;
  onButton: () => void;
  /** Escape (a `cancel`): refused when false, so only the button closes it. */
  escapable: boolean;
  onBrowserClose: (dialog: HTMLDialogElement) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();
  const { opened } = props;

  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (opened && !element.open) element.showModal();
    if (!opened && element.open) element.close();
  }, [opened]);

  return (
    <dialog
      ref={dialog}
      className={classes.dialog}
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(event) => !props.escapable && event.preventDefault()}
      onClose={(event) => props.onBrowserClose(event.currentTarget)}
    >
      <header className={classes.header}>
        <h2 id={titleId} className={classes.title}>
          {props.title}
        </h2>
      </header>
      <div className={classes.body}>
        <Text size={props.textSize} id={textId}>
          {props.text}
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button onClick={props.onButton}>{props.button}</Button>
        </Group>
      </div>
    </dialog>
  );
}

import { Anchor, Text } from '@mantine/core';
import { Fragment } from 'react';

const urlPattern = /(https?:\/\/[^\s<>"]+)/g;

/** Plain text with its http(s) addresses as links, line breaks kept. */
export function TextWithLinks({ text }: { text: string }) {
  const parts = text.split(urlPattern);
  return (
    <Text component="div" size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <Anchor key={index} href={part}>
            {part}
          </Anchor>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </Text>
  );
}

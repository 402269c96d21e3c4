import { Fragment } from 'react';
import { emailBreakParts } from '#shared/text.ts';

/** An e-mail address that wraps only after its '@' and before a '.', never in the middle of a word. */
export function EmailText({ email }: { email: string }) {
  return (
    <span style={{ overflowWrap: 'normal', wordBreak: 'normal' }}>
      {emailBreakParts(email).map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}

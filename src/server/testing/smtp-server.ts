import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

/** A mail an SMTP server took: its envelope and its text, long header lines unfolded (RFC 5322). */
type ReceivedMail = { from: string; to: string[]; raw: string };

/**
 * An SMTP server on a free local port for tests, keeping every mail it takes. While refusing, it answers each message
 * with that code: 451 as a server in trouble does ("try again later"), 550 as one that will never take it (no such
 * mailbox).
 */
export async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  const state: { refusing: number | null } = { refusing: null };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (state.refusing !== null) {
          // as real servers do, the answer may name the recipient
          const to = session.envelope.rcptTo.map((rcpt) => `<${rcpt.address}>`).join(', ');
          const text = state.refusing >= 500 ? 'Buzón inexistente' : 'Servicio no disponible';
          return callback(Object.assign(new Error(`${text} para ${to}`), { responseCode: state.refusing }));
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks)
            .toString('utf8')
            .replace(/\r\n[ \t]+/g, ' '),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** `true` is 451; `false` takes mail again. */
    refuse(refusing: boolean | 451 | 550) {
      state.refusing = refusing === true ? 451 : refusing === false ? null : refusing;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestSmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;

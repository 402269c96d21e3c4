import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

/** A mail an SMTP server took: its envelope and its text, long header lines unfolded (RFC 5322). */
type ReceivedMail = { from: string; to: string[]; raw: string };

/**
 * An SMTP server on a free local port for tests, keeping every mail it takes. While `refusing`, it answers 451 to
 * each message, as a server in trouble does ("try again later").
 */
export async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  const state = { refusing: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (state.refusing) {
          // as real servers do, the answer may name the recipient
          const to = session.envelope.rcptTo.map((rcpt) => `<${rcpt.address}>`).join(', ');
          return callback(Object.assign(new Error(`Servicio no disponible para ${to}`), { responseCode: 451 }));
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
    refuse(refusing: boolean) {
      state.refusing = refusing;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestSmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;

import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server on 127.0.0.1 that keeps what it receives, for e-mail tests. */

export interface ReceivedEmail {
  from: string;
  to: string[];
  subject: string;
  /** The body with quoted-printable soft breaks and escapes undone. */
  text: string;
  raw: string;
}

export interface SmtpSink {
  url: string;
  received: ReceivedEmail[];
  /** Resolves with the first message (already received or still to come) matching `match`. */
  next(match: (email: ReceivedEmail) => boolean): Promise<ReceivedEmail>;
  close(): Promise<void>;
}

function decodeBody(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const subject = /^Subject: (.*)$/im.exec(head)?.[1] ?? '';
  const quotedPrintable = /^Content-Transfer-Encoding: quoted-printable/im.test(head);
  const text = quotedPrintable
    ? body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : body;
  return { subject, text: text.replace(/\r\n/g, '\n') };
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedEmail[] = [];
  const waiters: {
    match: (email: ReceivedEmail) => boolean;
    resolve: (e: ReceivedEmail) => void;
  }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const email: ReceivedEmail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          ...decodeBody(raw),
          raw,
        };
        received.push(email);
        for (const waiter of [...waiters]) {
          if (waiter.match(email)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(email);
          }
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    next(match) {
      const found = received.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AppDb } from '#db/client.js';
import { outboxEmails } from '#db/schema/index.js';

/**
 * E-mail delivery. Every message is written to the outbox table first; with SMTP_URL set it is
 * then sent over SMTP and marked sent (or its error kept), without SMTP the outbox and the server
 * log are the delivery, so a local user can still read a reset code and finish.
 *
 * Sending happens after the caller's answer: a reset request must not take longer when the account
 * exists (and so a message goes out) than when it does not.
 */

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** Queues the message and returns at once; delivery continues in the background. */
  send(message: EmailMessage): void;
  /** Resolves when every queued message has been stored and, with SMTP, handed over. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface MailerOptions {
  db: AppDb;
  smtpUrl: string | undefined;
  from: string;
  log: FastifyBaseLogger;
}

export function createMailer(options: MailerOptions): Mailer {
  const transport: Transporter | undefined = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl)
    : undefined;
  const pending = new Set<Promise<void>>();

  async function deliver(message: EmailMessage): Promise<void> {
    const [row] = await options.db
      .insert(outboxEmails)
      .values({ ...message, html: message.html ?? null })
      .returning({ id: outboxEmails.id });
    const id = row!.id;
    if (!transport) {
      options.log.info(
        { outboxId: id, to: message.to, subject: message.subject, text: message.text },
        'e-mail kept in the outbox (SMTP_URL is not set)',
      );
      return;
    }
    try {
      await transport.sendMail({ from: options.from, ...message });
      await options.db
        .update(outboxEmails)
        .set({ sentAt: new Date(), lastError: null })
        .where(eq(outboxEmails.id, id));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      options.log.warn({ outboxId: id, to: message.to, reason }, 'e-mail could not be sent');
      await options.db
        .update(outboxEmails)
        .set({ lastError: reason })
        .where(eq(outboxEmails.id, id));
    }
  }

  return {
    send(message) {
      const job = deliver(message)
        .catch((error: unknown) => {
          options.log.warn({ err: error, to: message.to }, 'e-mail could not be queued');
        })
        .finally(() => pending.delete(job));
      pending.add(job);
    },
    async idle() {
      while (pending.size > 0) await Promise.all(pending);
    },
    async close() {
      await this.idle();
      transport?.close();
    },
  };
}

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
  /** Extra headers, e.g. List-Unsubscribe. */
  headers?: Record<string, string>;
  /**
   * The event this e-mail is about: a second message with the same key is not stored or sent,
   * so a retried job sends once.
   */
  dedupeKey?: string;
}

export interface Mailer {
  /** Queues the message and returns at once; delivery continues in the background. */
  send(message: EmailMessage): void;
  /**
   * Stores the message in the outbox and resolves once it is there (delivery over SMTP then
   * continues in the background): true, or false when one with its dedupeKey was stored before.
   * For jobs, whose retry must know whether the e-mail is on record.
   */
  sendOnce(message: EmailMessage): Promise<boolean>;
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

  /** The outbox row's id, or undefined when the message's event was e-mailed before. */
  async function store(message: EmailMessage): Promise<string | undefined> {
    const [row] = await options.db
      .insert(outboxEmails)
      .values({
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html ?? null,
        headers: message.headers ?? null,
        dedupeKey: message.dedupeKey ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: outboxEmails.id });
    return row?.id;
  }

  async function deliver(message: EmailMessage): Promise<void> {
    const id = await store(message);
    if (id) await transmit(id, message);
  }

  async function transmit(id: string, message: EmailMessage): Promise<void> {
    if (!transport) {
      options.log.info(
        { outboxId: id, to: message.to, subject: message.subject, text: message.text },
        'e-mail kept in the outbox (SMTP_URL is not set)',
      );
      return;
    }
    try {
      await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        ...(message.headers ? { headers: message.headers } : {}),
      });
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

  const track = (work: Promise<void>, to: string) => {
    const job = work
      .catch((error: unknown) => {
        options.log.warn({ err: error, to }, 'e-mail could not be queued');
      })
      .finally(() => pending.delete(job));
    pending.add(job);
  };

  return {
    send(message) {
      track(deliver(message), message.to);
    },
    async sendOnce(message) {
      const id = await store(message);
      if (!id) return false;
      track(transmit(id, message), message.to);
      return true;
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

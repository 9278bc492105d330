import type { AppDb } from '#db/client.js';
import { Sealer } from '../sealing.js';

/**
 * The reset cookie (`conformly_reset`) remembers, for the code screens, which address the code was
 * sent to. It holds the address sealed with AES-256-GCM under a key of the server's secret
 * (APP_SECRET, else one the service made and keeps in the database), so the browser, its disk and
 * whatever logs cookies see an opaque value. A value the server did not seal, or one past its
 * time, names no address.
 */
export class ResetCookieSealer {
  private readonly sealer: Sealer;

  constructor(
    db: AppDb,
    /** APP_SECRET; unset, the database's `reset-cookie` secret. */
    appSecret: string | undefined,
  ) {
    // A key of its own, so the same APP_SECRET signs unsubscribe links without crossing over.
    this.sealer = new Sealer(db, appSecret, 'reset-cookie', 'conformly-reset-cookie-v1');
  }

  seal(email: string, expiresAt: Date): Promise<string> {
    return this.sealer.seal(JSON.stringify({ email, expires: expiresAt.getTime() }));
  }

  /** The address a cookie of ours names, or undefined for none, an altered one or an old one. */
  async open(value: string | undefined, now = new Date()): Promise<string | undefined> {
    const plain = await this.sealer.open(value);
    if (plain === undefined) return undefined;
    try {
      const { email, expires } = JSON.parse(plain) as Record<string, unknown>;
      if (typeof email !== 'string' || typeof expires !== 'number') return undefined;
      return expires > now.getTime() ? email : undefined;
    } catch {
      return undefined;
    }
  }
}

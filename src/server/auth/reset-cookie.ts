import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { AppDb } from '#db/client.js';
import { loadServerSecret } from '#db/stores/server-secrets.js';

const ivBytes = 12;
const tagBytes = 16;

/**
 * The reset cookie (`conformly_reset`) remembers, for the code screens, which address the code was
 * sent to. It holds the address sealed with AES-256-GCM under a key of the server's secret
 * (APP_SECRET, else one the service made and keeps in the database), so the browser, its disk and
 * whatever logs cookies see an opaque value. A value the server did not seal, or one past its
 * time, names no address.
 */
export class ResetCookieSealer {
  private key: Promise<Buffer> | undefined;

  constructor(
    private readonly db: AppDb,
    /** APP_SECRET; unset, the database's `reset-cookie` secret. */
    private readonly appSecret: string | undefined,
  ) {}

  private sealingKey(): Promise<Buffer> {
    this.key ??= (async () => {
      const secret = this.appSecret ?? (await loadServerSecret(this.db, 'reset-cookie'));
      // A key of its own, so the same APP_SECRET signs unsubscribe links without crossing over.
      return createHmac('sha256', secret).update('conformly-reset-cookie-v1').digest();
    })();
    return this.key;
  }

  async seal(email: string, expiresAt: Date): Promise<string> {
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv('aes-256-gcm', await this.sealingKey(), iv);
    const plain = Buffer.from(JSON.stringify({ email, expires: expiresAt.getTime() }));
    const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
  }

  /** The address a cookie of ours names, or undefined for none, an altered one or an old one. */
  async open(value: string | undefined, now = new Date()): Promise<string | undefined> {
    if (!value) return undefined;
    const bytes = Buffer.from(value, 'base64url');
    if (bytes.length <= ivBytes + tagBytes) return undefined;
    try {
      const decipher = createDecipheriv(
        'aes-256-gcm',
        await this.sealingKey(),
        bytes.subarray(0, ivBytes),
      );
      decipher.setAuthTag(bytes.subarray(bytes.length - tagBytes));
      const plain = Buffer.concat([
        decipher.update(bytes.subarray(ivBytes, bytes.length - tagBytes)),
        decipher.final(),
      ]);
      const { email, expires } = JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
      if (typeof email !== 'string' || typeof expires !== 'number') return undefined;
      return expires > now.getTime() ? email : undefined;
    } catch {
      // Not sealed with our key (altered, forged, or from before the key changed).
      return undefined;
    }
  }
}

import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { AppDb } from '#db/client.js';
import { loadServerSecret } from '#db/stores/server-secrets.js';

const ivBytes = 12;
const tagBytes = 16;

/**
 * Seals short texts with AES-256-GCM under a key of the server's secret: APP_SECRET, else a
 * secret the service made and keeps in the database under `secretName`. Each use derives its own
 * key from `purpose`, so the same APP_SECRET never seals two kinds of thing with one key. What
 * the server did not seal, or sealed under another key, opens to nothing.
 */
export class Sealer {
  private key: Promise<Buffer> | undefined;

  constructor(
    private readonly db: AppDb,
    private readonly appSecret: string | undefined,
    private readonly secretName: string,
    private readonly purpose: string,
  ) {}

  private sealingKey(): Promise<Buffer> {
    this.key ??= (async () => {
      const secret = this.appSecret ?? (await loadServerSecret(this.db, this.secretName));
      return createHmac('sha256', secret).update(this.purpose).digest();
    })();
    return this.key;
  }

  async seal(plain: string): Promise<string> {
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv('aes-256-gcm', await this.sealingKey(), iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
  }

  /** The sealed text, or undefined when it was not sealed with this key (altered, forged, old). */
  async open(value: string | null | undefined): Promise<string | undefined> {
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
      return Buffer.concat([
        decipher.update(bytes.subarray(ivBytes, bytes.length - tagBytes)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}

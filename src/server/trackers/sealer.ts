import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { AppDb } from '#db/client.js';
import { loadServerSecret } from '#db/stores/server-secrets.js';

const ivBytes = 12;
const tagBytes = 16;

/**
 * Seals the tokens and webhook secrets owners enter with AES-256-GCM under a key of the server's
 * secret, as the reset cookie is sealed (auth/reset-cookie.ts): APP_SECRET, else the secret the
 * service made and keeps in the database, with a purpose label of its own so no other use of
 * the same secret shares the key. A database dump alone then shows no token.
 */
export class SecretSealer {
  private key: Promise<Buffer> | undefined;

  constructor(
    private readonly db: AppDb,
    private readonly appSecret: string | undefined,
  ) {}

  private sealingKey(): Promise<Buffer> {
    this.key ??= (async () => {
      const secret = this.appSecret ?? (await loadServerSecret(this.db, 'tracker-secrets'));
      return createHmac('sha256', secret).update('conformly-tracker-secrets-v1').digest();
    })();
    return this.key;
  }

  async seal(plain: string): Promise<string> {
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv('aes-256-gcm', await this.sealingKey(), iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
  }

  /** The sealed text, or undefined when it was not sealed with this server's key. */
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

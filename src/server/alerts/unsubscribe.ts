import { createHmac } from 'node:crypto';
import { notificationKinds, type NotificationKind } from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import { sameSecret } from '../auth/tokens.js';
import { loadServerSecret } from './repo.js';

/**
 * Unsubscribe links that work without signing in: the token names the account and the kind of
 * e-mail, and carries an HMAC-SHA256 of both under the server's secret (APP_SECRET, else one the
 * service made and keeps in the database), so nobody can forge or alter one. It never expires:
 * an unsubscribe link in an old e-mail must still work.
 */

export interface UnsubscribeTarget {
  userId: string;
  kind: NotificationKind;
}

export class UnsubscribeSigner {
  private key: Promise<Buffer> | undefined;

  constructor(
    private readonly db: AppDb,
    /** APP_SECRET; unset, the database's `unsubscribe` secret. */
    private readonly appSecret: string | undefined,
  ) {}

  private signingKey(): Promise<Buffer> {
    this.key ??= (async () => {
      const secret = this.appSecret ?? (await loadServerSecret(this.db, 'unsubscribe'));
      // A key of its own, so the secret could sign other things without a token crossing over.
      return createHmac('sha256', secret).update('conformly-unsubscribe-v1').digest();
    })();
    return this.key;
  }

  async sign(target: UnsubscribeTarget): Promise<string> {
    const payload = Buffer.from(`${target.userId}:${target.kind}`).toString('base64url');
    const mac = createHmac('sha256', await this.signingKey())
      .update(payload)
      .digest('base64url');
    return `${payload}.${mac}`;
  }

  /** The account and kind a token names, or undefined for anything altered or malformed. */
  async verify(token: string): Promise<UnsubscribeTarget | undefined> {
    const [payload, mac, ...rest] = token.split('.');
    if (!payload || !mac || rest.length > 0) return undefined;
    const expected = createHmac('sha256', await this.signingKey())
      .update(payload)
      .digest('base64url');
    if (!sameSecret(mac, expected)) return undefined;
    const [userId, kind] = Buffer.from(payload, 'base64url').toString('utf8').split(':');
    if (!userId || !notificationKinds.includes(kind as NotificationKind)) return undefined;
    return { userId, kind: kind as NotificationKind };
  }
}

/** The confirm page (in the e-mail's body) and the one-click address (List-Unsubscribe). */
export function unsubscribeUrls(publicUrl: string, token: string) {
  const query = `token=${encodeURIComponent(token)}`;
  return {
    pageUrl: `${publicUrl}/unsubscribe?${query}`,
    oneClickUrl: `${publicUrl}/api/account/unsubscribe?${query}`,
  };
}

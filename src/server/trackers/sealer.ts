import type { AppDb } from '#db/client.js';
import { Sealer } from '../sealing.js';

/**
 * Seals the tokens and webhook secrets owners enter (src/server/sealing.ts), under a key of their
 * own: a database dump alone shows no token.
 */
export class SecretSealer extends Sealer {
  constructor(db: AppDb, appSecret: string | undefined) {
    super(db, appSecret, 'tracker-secrets', 'conformly-tracker-secrets-v1');
  }
}

import { createHash, randomBytes } from 'node:crypto';
import type { AppDb } from '#db/client.js';
import * as store from '#db/stores/scans.js';
import * as shareLinks from '#db/stores/share-links.js';
import { NotFoundError } from '../http-errors.js';
import type { Caller } from '../plugins/caller.js';

/**
 * Who may read a scan's documents (report, raw output, exports, VPAT, statement, screenshots,
 * progress): anyone when it is public, else its owner or a holder of its share link. Everyone
 * else gets the same 404 as for a scan that does not exist, so an id reveals nothing.
 */

/** The caller as far as reading goes; sign-up's starter has no client id, say. */
export type Reader = { [K in 'organisationId' | 'clientId']?: Caller[K] };

/** Cache-Control of a document that is not everyone's to read. */
export const privateNoStore = 'private, no-store';

export const scanNotFound = () =>
  new NotFoundError(
    'Assessment Report Not Found: the requested compliance assessment could not be located.',
  );

/**
 * The organisation the scan was started in (its `user_id`), or, for a scan started while signed
 * out, the browser that started it (its client cookie), whoever is signed in there now.
 */
export function isScanOwner(
  row: { userId: string | null; visitorId: string | null },
  reader: Reader,
): boolean {
  if (row.userId !== null) {
    return reader.organisationId !== undefined && row.userId === reader.organisationId;
  }
  return reader.clientId !== undefined && row.visitorId === reader.clientId;
}

/** Only the hash is stored, so a leaked table opens nothing. */
export const hashShareToken = (token: string) =>
  createHash('sha256').update(token, 'utf8').digest('hex');

/** May `reader` (or the holder of `shareToken`) read this scan or a file it produced? */
export async function mayRead(
  db: AppDb,
  row: { userId: string | null; visitorId: string | null; isPublic: boolean },
  reader: Reader,
  scanId: string | null,
  shareToken: string | undefined,
): Promise<boolean> {
  if (row.isPublic || isScanOwner(row, reader)) return true;
  if (!shareToken || !scanId) return false;
  return shareLinks.shareLinkMatches(db, scanId, hashShareToken(shareToken));
}

/** Throws the scan's 404 unless `reader` may read it; answers whether the scan is public. */
export async function assertReadable(
  db: AppDb,
  reader: Reader,
  scanId: string,
  shareToken?: string,
): Promise<{ isPublic: boolean }> {
  const row = await store.findScanAccess(db, scanId);
  if (!row || !(await mayRead(db, row, reader, scanId, shareToken))) throw scanNotFound();
  return { isPublic: row.isPublic };
}

const notYours = () => new NotFoundError('Scan Not Found: no scan of yours has this id.');

/** Makes (or replaces) the owner's share link of the scan; answers the new token. */
export async function createShareLink(db: AppDb, reader: Reader, scanId: string): Promise<string> {
  const row = await store.findScanAccess(db, scanId);
  if (!row || !isScanOwner(row, reader)) throw notYours();
  // 32 random bytes: not guessable, and short enough for a link.
  const token = randomBytes(32).toString('base64url');
  await shareLinks.saveShareLink(db, scanId, hashShareToken(token));
  return token;
}

/** Revokes the scan's share link; revoking one that is not there is not an error. */
export async function revokeShareLink(db: AppDb, reader: Reader, scanId: string): Promise<void> {
  const row = await store.findScanAccess(db, scanId);
  if (!row || !isScanOwner(row, reader)) throw notYours();
  await shareLinks.deleteShareLink(db, scanId);
}

import type { AppDb, Database } from '#db/client.js';
import { readPublicVersion } from '#db/stores/public-versions.js';

/**
 * Domains' public versions as this process knows them. The triggers that move a version also
 * NOTIFY channel `public_versions` with the domain (migration 0006); while this process listens,
 * a version read once is kept until a notification for its domain arrives, so a popular badge or
 * status page costs no database read at all. On PGlite the notification is delivered as the
 * writing statement returns (one process owns the database), so nothing stale is ever served; on
 * Postgres it arrives a moment after the commit. While not listening (the listening connection was
 * lost), every request reads the version, with concurrent requests for one domain sharing a read.
 */
export class PublicVersions {
  readonly #known = new Map<string, number | undefined>();
  readonly #underWay = new Map<string, Promise<number | undefined>>();
  /** Moves on every notification: a read begun before one may not be kept. */
  #epoch = 0;
  #listening = false;
  #stop: (() => Promise<void>) | undefined;

  constructor(
    readonly db: AppDb,
    readonly maxDomains = 10_000,
  ) {}

  /** Starts listening; without it (or if it fails) versions are read on every request. */
  static async watch(database: Database, log?: (error: unknown) => void): Promise<PublicVersions> {
    const versions = new PublicVersions(database.db);
    try {
      versions.#stop = await database.listen(
        'public_versions',
        (domain) => versions.#forget(domain),
        () => versions.#lose(),
      );
      versions.#listening = true;
    } catch (error) {
      log?.(error);
    }
    return versions;
  }

  #forget(domain: string): void {
    this.#epoch += 1;
    this.#known.delete(domain);
  }

  #lose(): void {
    this.#epoch += 1;
    this.#listening = false;
    this.#known.clear();
  }

  get listening(): boolean {
    return this.#listening;
  }

  /** The domain's current public version (undefined: nothing about it was ever stored). */
  async get(domain: string): Promise<number | undefined> {
    if (this.#listening && this.#known.has(domain)) return this.#known.get(domain);
    const underWay = this.#underWay.get(domain);
    if (underWay) return underWay;
    const epoch = this.#epoch;
    const read = readPublicVersion(this.db, domain)
      .then((version) => {
        if (this.#listening && epoch === this.#epoch) this.#remember(domain, version);
        return version;
      })
      .finally(() => this.#underWay.delete(domain));
    this.#underWay.set(domain, read);
    return read;
  }

  #remember(domain: string, version: number | undefined): void {
    this.#known.set(domain, version);
    if (this.#known.size > this.maxDomains) {
      this.#known.delete(this.#known.keys().next().value!);
    }
  }

  async close(): Promise<void> {
    this.#listening = false;
    this.#known.clear();
    const stop = this.#stop;
    this.#stop = undefined;
    await stop?.();
  }
}

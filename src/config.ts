import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

/**
 * Every setting of the service, read from the environment once at start-up. Nothing else in the
 * codebase reads process.env: entry points call loadConfig() and pass the result down.
 * Defaults make `npm start` work with no variables at all.
 */

/** Unset and empty mean the same: docker-compose and CI often export empty strings. */
const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : undefined));

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
    .optional()
    .transform((value) =>
      value === undefined || value === '' ? fallback : ['true', '1', 'yes'].includes(value),
    );

const integer = (fallback: number, min: number, max: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (!value) return fallback;
      const parsed = Number(value);
      if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
        ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return parsed;
    });

const url = (protocols: readonly string[]) =>
  optionalText.refine(
    (value) => {
      if (value === undefined) return true;
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}` },
  );

const proxyNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** What Fastify's trustProxy (proxy-addr) accepts as one entry. */
function isProxyAddress(entry: string): boolean {
  if (proxyNames.has(entry)) return true;
  return entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry);
}

const EnvSchema = z.object({
  PORT: integer(3000, 1, 65_535),
  HOST: optionalText,
  LOG_LEVEL: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() ? value.trim() : undefined),
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  /** Where the embedded database keeps its files; `memory://` keeps it in memory only. */
  DATA_DIR: optionalText.transform((value) => value ?? './data'),
  /** A Postgres connection string; when unset the embedded database (PGlite) is used. */
  DATABASE_URL: url(['postgres:', 'postgresql:']),
  /** Browser tabs each worker scans in at once. */
  SCAN_CONCURRENCY: integer(2, 1, 16),
  /** Let the scanner reach loopback and private addresses (tests, local use). */
  ALLOW_PRIVATE_TARGETS: flag(false),
  /**
   * Private origins scans may reach one by one (a staging site), comma-separated; nothing else
   * private opens with them.
   */
  ALLOWED_PRIVATE_ORIGINS: optionalText.transform((value, ctx) => {
    const origins: string[] = [];
    for (const entry of (value ?? '').split(',').map((item) => item.trim())) {
      if (!entry) continue;
      let parsed: URL | undefined;
      try {
        parsed = new URL(entry);
      } catch {
        parsed = undefined;
      }
      if (
        !parsed ||
        (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') ||
        parsed.pathname !== '/' ||
        parsed.search ||
        parsed.hash ||
        parsed.username
      ) {
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}" is not an origin like http://staging.internal:8080`,
        });
        return z.NEVER;
      }
      origins.push(parsed.origin);
    }
    return origins;
  }),
  CHROMIUM_PATH: optionalText,
  /** The address users reach the service at: links in e-mails and the Google redirect use it. */
  PUBLIC_URL: url(['http:', 'https:']),
  /** Mark cookies Secure even when PUBLIC_URL is plain http (e.g. TLS ends at a proxy). */
  COOKIE_SECURE: flag(false),
  /**
   * The reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed: a comma-separated
   * list of addresses, CIDR ranges, or `loopback`, `linklocal`, `uniquelocal`. Unset: none, and
   * every caller is the address that connected (behind a proxy, the proxy's).
   */
  TRUST_PROXY: optionalText.transform((value, ctx) => {
    const entries = (value ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    for (const entry of entries) {
      if (!isProxyAddress(entry)) {
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}" is not an IP address, a CIDR range, loopback, linklocal or uniquelocal`,
        });
        return z.NEVER;
      }
    }
    return entries;
  }),
  /** How long a sign-in lasts. */
  SESSION_TTL_HOURS: integer(24 * 7, 1, 24 * 365),
  SMTP_URL: url(['smtp:', 'smtps:']),
  /** Sender of the service's e-mails. */
  MAIL_FROM: optionalText,
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  /** The OpenID issuer Google sign-in talks to; only tests and staging point it elsewhere. */
  GOOGLE_ISSUER: url(['http:', 'https:']),
  STRIPE_SECRET_KEY: optionalText,
  /** The signing secret of the webhook endpoint (`whsec_...`); Stripe needs it with the key. */
  STRIPE_WEBHOOK_SECRET: optionalText,
  /** The key Stripe.js runs with in the browser (`pk_...`). */
  STRIPE_PUBLISHABLE_KEY: optionalText,
  /** The seller printed on invoices (the operator of this service); `\n` in the address breaks lines. */
  SELLER_NAME: optionalText,
  SELLER_EMAIL: optionalText,
  SELLER_ADDRESS: optionalText,
  SELLER_COUNTRY: optionalText,
  SELLER_TAX_ID: optionalText,
  /** Another Stripe API address (tests, stripe-mock); unset means api.stripe.com. */
  STRIPE_API_BASE: url(['http:', 'https:']).refine(
    // An address that is no URL at all is reported once, by url().
    (value) => value === undefined || [undefined, '/'].includes(URL.parse(value)?.pathname),
    { message: 'must be an origin like http://127.0.0.1:12111, without a path' },
  ),
  /**
   * Signs unsubscribe links in e-mails (HMAC) and seals the password-reset cookie (AES-GCM);
   * unset, the service makes a random one and keeps it
   * in the database, shared by every server and worker. Set it to rotate it (old links then fail).
   */
  APP_SECRET: optionalText.refine((value) => value === undefined || value.length >= 32, {
    message: 'must be at least 32 characters',
  }),
  AI_BASE_URL: url(['http:', 'https:']),
  AI_API_KEY: optionalText,
  AI_MODEL: optionalText,
  /** Rescan monitored domains on a schedule (public-area §1: weekly automated scans). */
  MONITOR_ENABLED: flag(true),
  /** How often due rescans are looked for, as a cron expression in UTC; default hourly. */
  MONITOR_CRON: optionalText
    .transform((value) => value ?? '0 * * * *')
    .refine((value) => /^\S+(\s+\S+){4,5}$/.test(value), {
      message: 'must be a cron expression of 5 or 6 fields, e.g. "0 * * * *"',
    }),
  /** Hours between two rescans of one domain; default a week. */
  MONITOR_INTERVAL_HOURS: integer(168, 1, 24 * 365),
  /** Rescans queued by one run at most, so a backlog is spread over several runs. */
  MONITOR_BATCH: integer(50, 1, 10_000),
  /** Pages one site audit of a monitored domain covers at most (Compliance Shield: 50). */
  MONITOR_MAX_PAGES: integer(50, 1, 10_000),
  /**
   * DNS servers that answer ownership-verification TXT lookups, comma-separated (`1.1.1.1`,
   * `10.0.0.2:5353`, `[2606:4700::1111]:53`); unset: the system's resolvers.
   */
  VERIFICATION_DNS_SERVERS: optionalText.transform((value, ctx) => {
    const servers: string[] = [];
    for (const entry of (value ?? '').split(',').map((item) => item.trim())) {
      if (!entry) continue;
      if (!isDnsServer(entry)) {
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}" is not a DNS server address like 1.1.1.1, 10.0.0.2:5353 or [::1]:53`,
        });
        return z.NEVER;
      }
      servers.push(entry);
    }
    return servers;
  }),
});

/** What dns.Resolver#setServers accepts: an IP, `ipv4:port` or `[ipv6]:port`. */
function isDnsServer(entry: string): boolean {
  if (isIP(entry)) return true;
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(entry);
  if (!match) return false;
  const host = match[1] ?? match[2] ?? '';
  const port = Number(match[3]);
  return (match[1] ? isIP(host) === 6 : isIP(host) === 4) && port >= 1 && port <= 65_535;
}

export interface Config {
  port: number;
  /** Interface to listen on; unset means all interfaces. */
  host: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  dataDir: string;
  databaseUrl: string | undefined;
  scanConcurrency: number;
  allowPrivateTargets: boolean;
  /** ALLOWED_PRIVATE_ORIGINS: origins allowed although private, exactly these. */
  allowedPrivateOrigins: string[];
  chromiumPath: string | undefined;
  /** Origin (and optional base path) users reach the service at, without a trailing slash. */
  publicUrl: string;
  /** Session and reset cookies carry Secure (PUBLIC_URL is https, or COOKIE_SECURE). */
  secureCookies: boolean;
  /** Proxies trusted for forwarded client addresses (TRUST_PROXY); empty trusts none. */
  trustProxy: string[];
  sessionTtlHours: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Google sign-in, when both id and secret are set. */
  google: { clientId: string; clientSecret: string; issuer: string } | undefined;
  stripeSecretKey: string | undefined;
  /** Card payments through Stripe need this and the secret key (billing/payments.ts). */
  stripeWebhookSecret: string | undefined;
  stripePublishableKey: string | undefined;
  /** Who sells, as printed on every invoice (SELLER_*); defaults name the service. */
  seller: { name: string; email: string; address: string; country: string; taxId: string };
  /** APP_SECRET: signs unsubscribe links, seals the reset cookie; unset, one kept in the database. */
  appSecret: string | undefined;
  /** STRIPE_API_BASE: where the Stripe SDK sends its calls instead of api.stripe.com. */
  stripeApiBase: StripeApiBase | undefined;
  /** An OpenAI-compatible endpoint for AI summaries, when AI_BASE_URL and AI_MODEL are set. */
  ai: { baseUrl: string; apiKey: string | undefined; model: string } | undefined;
  /** Scheduled rescans of monitored domains (src/jobs/monitor.ts). */
  monitor: {
    enabled: boolean;
    cron: string;
    intervalHours: number;
    batch: number;
    /** MONITOR_MAX_PAGES: the page budget of one site audit. */
    maxPages: number;
  };
  /** VERIFICATION_DNS_SERVERS: resolvers for ownership TXT lookups; empty means the system's. */
  verificationDnsServers: string[];
}

/** The parts of an API address the Stripe SDK takes (its host, port and protocol options). */
export interface StripeApiBase {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

function stripeApiBase(value: string | undefined): StripeApiBase | undefined {
  if (!value) return undefined;
  const base = new URL(value);
  const protocol = base.protocol === 'http:' ? 'http' : 'https';
  return {
    // The SDK wants a bare host: an IPv6 literal loses its brackets.
    host: base.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: base.port ? Number(base.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const isSet = (value: string | undefined) => Boolean(value?.trim());

/** Rules that span variables, checked on the raw text so they are reported with the rest. */
function crossVariableProblems(env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  if (isSet(env.GOOGLE_CLIENT_ID) !== isSet(env.GOOGLE_CLIENT_SECRET)) {
    problems.push('GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET: set both or neither');
  }
  if (isSet(env.AI_BASE_URL) !== isSet(env.AI_MODEL)) {
    problems.push(
      'AI_BASE_URL, AI_MODEL: set both (an OpenAI-compatible endpoint and its model) or neither',
    );
  }
  if (isSet(env.AI_API_KEY) && !isSet(env.AI_BASE_URL)) {
    problems.push('AI_API_KEY: needs AI_BASE_URL and AI_MODEL');
  }
  return problems;
}

/** Parses the environment; throws a ConfigError naming every bad variable at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  const problems = [
    ...(parsed.success
      ? []
      : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)),
    ...crossVariableProblems(env),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');

  return {
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    scanConcurrency: e.SCAN_CONCURRENCY,
    allowPrivateTargets: e.ALLOW_PRIVATE_TARGETS,
    allowedPrivateOrigins: e.ALLOWED_PRIVATE_ORIGINS,
    chromiumPath: e.CHROMIUM_PATH,
    publicUrl,
    secureCookies: e.COOKIE_SECURE || publicUrl.startsWith('https:'),
    trustProxy: e.TRUST_PROXY,
    sessionTtlHours: e.SESSION_TTL_HOURS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `Conformly <no-reply@${new URL(publicUrl).hostname}>`,
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? {
            clientId: e.GOOGLE_CLIENT_ID,
            clientSecret: e.GOOGLE_CLIENT_SECRET,
            issuer: e.GOOGLE_ISSUER ?? 'https://accounts.google.com',
          }
        : undefined,
    stripeSecretKey: e.STRIPE_SECRET_KEY,
    stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET,
    stripePublishableKey: e.STRIPE_PUBLISHABLE_KEY,
    seller: {
      name: e.SELLER_NAME ?? 'Conformly',
      email: e.SELLER_EMAIL ?? `billing@${new URL(publicUrl).hostname}`,
      address: (e.SELLER_ADDRESS ?? '').replace(/\\n/g, '\n'),
      country: e.SELLER_COUNTRY ?? '',
      taxId: e.SELLER_TAX_ID ?? '',
    },
    appSecret: e.APP_SECRET,
    stripeApiBase: stripeApiBase(e.STRIPE_API_BASE),
    ai:
      e.AI_BASE_URL && e.AI_MODEL
        ? { baseUrl: e.AI_BASE_URL, apiKey: e.AI_API_KEY, model: e.AI_MODEL }
        : undefined,
    monitor: {
      enabled: e.MONITOR_ENABLED,
      cron: e.MONITOR_CRON,
      intervalHours: e.MONITOR_INTERVAL_HOURS,
      batch: e.MONITOR_BATCH,
      maxPages: e.MONITOR_MAX_PAGES,
    },
    verificationDnsServers: e.VERIFICATION_DNS_SERVERS,
  };
}

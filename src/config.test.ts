import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#config';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('needs no variables at all', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: undefined,
      logLevel: 'info',
      dataDir: './data',
      databaseUrl: undefined,
      scanConcurrency: 2,
      allowPrivateTargets: false,
      allowedPrivateOrigins: [],
      chromiumPath: undefined,
      publicUrl: 'http://localhost:3000',
      secureCookies: false,
      trustProxy: [],
      sessionTtlHours: 168,
      smtpUrl: undefined,
      mailFrom: 'Conformly <no-reply@localhost>',
      google: undefined,
      stripeSecretKey: undefined,
      stripeWebhookSecret: undefined,
      stripePublishableKey: undefined,
      stripeApiBase: undefined,
      ai: undefined,
      appSecret: undefined,
      seller: {
        name: 'Conformly',
        email: 'billing@localhost',
        address: '',
        country: '',
        taxId: '',
      },
      monitor: { enabled: true, cron: '0 * * * *', intervalHours: 168, batch: 50, maxPages: 50 },
      verificationDnsServers: [],
    });
  });

  it('reads the DNS servers of ownership checks and refuses what is not one', () => {
    expect(
      loadConfig({ VERIFICATION_DNS_SERVERS: '1.1.1.1, 10.0.0.2:5353,[2606:4700::1111]:53,::1' })
        .verificationDnsServers,
    ).toEqual(['1.1.1.1', '10.0.0.2:5353', '[2606:4700::1111]:53', '::1']);
    for (const bad of [
      'dns.example',
      '1.1.1.1:0',
      '1.1.1.1:99999',
      '2606:4700::1111:53x',
      '[1.1.1.1]:53',
    ]) {
      expect(problemsOf({ VERIFICATION_DNS_SERVERS: bad })).toEqual([
        `VERIFICATION_DNS_SERVERS: "${bad}" is not a DNS server address like 1.1.1.1, 10.0.0.2:5353 or [::1]:53`,
      ]);
    }
  });

  it('reads the monitoring schedule and refuses a bad one', () => {
    expect(
      loadConfig({
        MONITOR_ENABLED: 'false',
        MONITOR_CRON: '*/15 * * * *',
        MONITOR_INTERVAL_HOURS: '24',
        MONITOR_BATCH: '10',
        MONITOR_MAX_PAGES: '200',
      }).monitor,
    ).toEqual({
      enabled: false,
      cron: '*/15 * * * *',
      intervalHours: 24,
      batch: 10,
      maxPages: 200,
    });
    expect(
      problemsOf({
        MONITOR_CRON: 'hourly',
        MONITOR_INTERVAL_HOURS: '0',
        MONITOR_BATCH: 'x',
        MONITOR_MAX_PAGES: '0',
      }),
    ).toEqual([
      'MONITOR_CRON: must be a cron expression of 5 or 6 fields, e.g. "0 * * * *"',
      'MONITOR_INTERVAL_HOURS: must be a whole number from 1 to 8760',
      'MONITOR_BATCH: must be a whole number from 1 to 10000',
      'MONITOR_MAX_PAGES: must be a whole number from 1 to 10000',
    ]);
  });

  it('reads every setting', () => {
    const config = loadConfig({
      PORT: '8080',
      DATA_DIR: 'memory://',
      DATABASE_URL: 'postgres://app@db:5432/conformly',
      SCAN_CONCURRENCY: '4',
      ALLOW_PRIVATE_TARGETS: 'true',
      ALLOWED_PRIVATE_ORIGINS: 'http://staging.internal:8080, https://10.0.0.5/',
      CHROMIUM_PATH: '/usr/lib/chromium/chromium',
      SMTP_URL: 'smtp://mail:25',
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
      STRIPE_SECRET_KEY: 'sk_test_x',
      AI_BASE_URL: 'http://127.0.0.1:11434/v1',
      AI_MODEL: 'llama3',
    });
    expect(config).toMatchObject({
      port: 8080,
      dataDir: 'memory://',
      databaseUrl: 'postgres://app@db:5432/conformly',
      scanConcurrency: 4,
      allowPrivateTargets: true,
      allowedPrivateOrigins: ['http://staging.internal:8080', 'https://10.0.0.5'],
      google: { clientId: 'id', clientSecret: 'secret', issuer: 'https://accounts.google.com' },
      ai: { baseUrl: 'http://127.0.0.1:11434/v1', apiKey: undefined, model: 'llama3' },
    });
  });

  it('reads the Stripe keys and the API address the SDK is pointed at', () => {
    expect(
      loadConfig({
        STRIPE_SECRET_KEY: 'sk_test_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
        STRIPE_API_BASE: 'http://127.0.0.1:12111',
      }),
    ).toMatchObject({
      stripeSecretKey: 'sk_test_x',
      stripeWebhookSecret: 'whsec_x',
      stripePublishableKey: 'pk_test_x',
      stripeApiBase: { host: '127.0.0.1', port: 12111, protocol: 'http' },
    });
    expect(loadConfig({ STRIPE_API_BASE: 'https://[::1]/' }).stripeApiBase).toEqual({
      host: '::1',
      port: 443,
      protocol: 'https',
    });
    expect(problemsOf({ STRIPE_API_BASE: 'http://127.0.0.1:12111/v1' })).toEqual([
      'STRIPE_API_BASE: must be an origin like http://127.0.0.1:12111, without a path',
    ]);
    expect(problemsOf({ STRIPE_API_BASE: 'stripe' })).toEqual([
      'STRIPE_API_BASE: must be a URL starting with http:// or https://',
    ]);
  });

  it('takes cookie security and links from the public address', () => {
    expect(
      loadConfig({ PUBLIC_URL: 'https://app.example.com/', SESSION_TTL_HOURS: '12' }),
    ).toMatchObject({
      publicUrl: 'https://app.example.com',
      secureCookies: true,
      sessionTtlHours: 12,
      mailFrom: 'Conformly <no-reply@app.example.com>',
    });
    expect(loadConfig({ COOKIE_SECURE: 'true' })).toMatchObject({ secureCookies: true });
  });

  it('treats empty variables as unset', () => {
    expect(
      loadConfig({ PORT: '', DATABASE_URL: '', ALLOW_PRIVATE_TARGETS: '', LOG_LEVEL: '' }),
    ).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      allowPrivateTargets: false,
      logLevel: 'info',
    });
  });

  it('lists every bad variable at once', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      SCAN_CONCURRENCY: '0',
      ALLOW_PRIVATE_TARGETS: 'maybe',
      ALLOWED_PRIVATE_ORIGINS: 'http://ok.internal, staging.internal/admin',
      GOOGLE_CLIENT_ID: 'only-the-id',
    });
    expect(problems).toEqual([
      'PORT: must be a whole number from 1 to 65535',
      'DATABASE_URL: must be a URL starting with postgres:// or postgresql://',
      'SCAN_CONCURRENCY: must be a whole number from 1 to 16',
      expect.stringMatching(/^ALLOW_PRIVATE_TARGETS: /),
      'ALLOWED_PRIVATE_ORIGINS: "staging.internal/admin" is not an origin like http://staging.internal:8080',
      'GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET: set both or neither',
    ]);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/^Invalid configuration:\n {2}- PORT: /);
  });
});

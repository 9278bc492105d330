import { describe, expect, it } from 'vitest';
import { assertPublicTarget, normalizeTargetUrl, UrlSafetyError } from './url-safety.js';

function refusal(run: () => unknown): UrlSafetyError {
  try {
    run();
  } catch (error) {
    if (error instanceof UrlSafetyError) return error;
    throw error;
  }
  throw new Error('expected a UrlSafetyError');
}

async function asyncRefusal(promise: Promise<unknown>): Promise<UrlSafetyError> {
  const error: unknown = await promise.then(
    () => new Error('expected a refusal'),
    (caught: unknown) => caught,
  );
  if (error instanceof UrlSafetyError) return error;
  throw error;
}

describe('normalizeTargetUrl', () => {
  it.each([
    ['example.com', 'https://example.com/'],
    ['  example.com/about?x=1  ', 'https://example.com/about?x=1'],
    ['www.example.co.uk:8443/a', 'https://www.example.co.uk:8443/a'],
    ['http://example.com', 'http://example.com/'],
    ['HTTPS://Example.COM/Path', 'https://example.com/Path'],
    ['http://127.0.0.1:8080/x', 'http://127.0.0.1:8080/x'],
  ])('reads %j as %s', (input, href) => {
    expect(normalizeTargetUrl(input).href).toBe(href);
  });

  it.each([
    ['', 'invalid'],
    ['   ', 'invalid'],
    ['example com', 'invalid'],
    ['just words here.', 'invalid'],
    ['localhost', 'invalid'],
    ['http://', 'invalid'],
    ['https://exa mple.com', 'invalid'],
    ['ftp://example.com/file', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['JavaScript:alert(document.domain)', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['data:text/html,<h1>x</h1>', 'scheme'],
    ['mailto:someone@example.com', 'scheme'],
  ])('refuses %j (%s)', (input, code) => {
    expect(refusal(() => normalizeTargetUrl(input)).code).toBe(code);
  });
});

describe('assertPublicTarget', () => {
  const publicDns = async () => ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'];

  it('accepts a host whose every address is public', async () => {
    await expect(
      assertPublicTarget(new URL('https://example.com/'), { resolve: publicDns }),
    ).resolves.toBeUndefined();
  });

  it('refuses localhost with a message that says why', async () => {
    const error = await asyncRefusal(assertPublicTarget(new URL('http://localhost:8080/')));
    expect(error.code).toBe('private');
    expect(error.message).toBe(
      'Refused to scan http://localhost:8080/: localhost resolves to 127.0.0.1, a loopback address. ' +
        'Conformly only scans public addresses.',
    );
  });

  it('refuses a host when any one of its records is private', async () => {
    const error = await asyncRefusal(
      assertPublicTarget(new URL('https://mixed.example/'), {
        resolve: async () => ['93.184.215.14', '10.0.0.7'],
      }),
    );
    expect(error.message).toContain(
      'mixed.example resolves to 10.0.0.7, a private network address',
    );
  });

  it('refuses hex, decimal and mapped forms of private addresses', async () => {
    for (const href of [
      'http://0x7f000001/',
      'http://2130706433/',
      'http://[::ffff:169.254.169.254]/',
      'http://[fd00:ec2::254]/',
    ]) {
      expect((await asyncRefusal(assertPublicTarget(new URL(href)))).code).toBe('private');
    }
  });

  it.each([
    'http://[::127.0.0.1]/', // IPv4-compatible ::7f00:1
    'http://[::7f00:1]/',
    'http://[::a9fe:a9fe]/', // IPv4-compatible metadata address
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::ffff:0:7f00:1]/', // SIIT
    'http://[64:ff9b::127.0.0.1]/', // NAT64
    'http://[64:ff9b:1::a00:1]/', // local-use NAT64 of 10.0.0.1
    'http://[2002:7f00:1::1]/', // 6to4 of 127.0.0.1
    'http://[2a00:1450::5efe:7f00:1]/', // ISATAP of 127.0.0.1
    'http://[::1:7f00:1]/', // outside 2000::/3, reserved
    'http://[::]/',
    'http://0.0.0.0/',
    'http://0/',
    'http://127.1/',
    'http://0177.0.0.1/',
    'http://0x7f.1/',
    'http://2130706433/',
    'http://%31%32%37.0.0.1/',
    'http://127。0。0。1/', // ideographic full stops
  ])('refuses the embedded, compatible or odd form %s', async (href) => {
    expect((await asyncRefusal(assertPublicTarget(new URL(href)))).code).toBe('private');
  });

  it('names the IPv4 address inside the IPv6 form', async () => {
    const error = await asyncRefusal(assertPublicTarget(new URL('http://[::127.0.0.1]/')));
    expect(error.message).toBe(
      'Refused to scan http://[::7f00:1]/: ::7f00:1 is a loopback address in IPv6 form (127.0.0.1). ' +
        'Conformly only scans public addresses.',
    );
  });

  it('refuses metadata host names before asking DNS', async () => {
    const error = await asyncRefusal(
      assertPublicTarget(new URL('http://metadata.google.internal/computeMetadata/v1/'), {
        resolve: publicDns,
      }),
    );
    expect(error.message).toContain('cloud metadata host');
  });

  it('reports a host that does not resolve', async () => {
    const noSuchHost = async (): Promise<string[]> => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const error = await asyncRefusal(
      assertPublicTarget(new URL('https://nowhere.example/'), { resolve: noSuchHost }),
    );
    expect(error.code).toBe('unresolvable');
    expect(error.message).toBe(
      'We could not find nowhere.example: no website answers to that name. Check the address for typos.',
    );
  });

  it('asks whether the name exists even when private networks are allowed', async () => {
    const noSuchHost = async (): Promise<string[]> => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    for (const options of [
      { allowPrivateNetwork: true },
      { allowedPrivateOrigins: ['http://typo.internal:8080'] },
    ]) {
      const error = await asyncRefusal(
        assertPublicTarget(new URL('http://typo.internal:8080/'), {
          ...options,
          resolve: noSuchHost,
        }),
      );
      expect(error.code).toBe('unresolvable');
      expect(error.message).toContain('We could not find typo.internal');
    }
  });

  it('gives up on a name whose lookup does not answer in time', async () => {
    const neverAnswers = () => new Promise<string[]>(() => undefined);
    const error = await asyncRefusal(
      assertPublicTarget(new URL('https://slow-dns.example/'), {
        resolve: neverAnswers,
        resolveTimeoutMs: 20,
      }),
    );
    expect(error.code).toBe('unresolvable');
    expect(error.message).toContain('We could not look up slow-dns.example in time');
  });

  it('allows exactly the listed private origins, or everything when private networks are allowed', async () => {
    const options = { allowedPrivateOrigins: ['http://127.0.0.1:8080'] };
    await expect(
      assertPublicTarget(new URL('http://127.0.0.1:8080/page'), options),
    ).resolves.toBeUndefined();
    expect(
      (await asyncRefusal(assertPublicTarget(new URL('http://127.0.0.1:8081/'), options))).code,
    ).toBe('private');
    expect(
      (await asyncRefusal(assertPublicTarget(new URL('https://127.0.0.1:8080/'), options))).code,
    ).toBe('private');
    await expect(
      assertPublicTarget(new URL('http://169.254.169.254/'), { allowPrivateNetwork: true }),
    ).resolves.toBeUndefined();
  });
});

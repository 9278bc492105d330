import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccountService, type AccountService } from '../../../test/support/auth.js';

/**
 * HSTS is sent only where the browser reached the service over https: TLS to this server, a
 * trusted proxy's `X-Forwarded-Proto: https`, or a deployment whose public address is https
 * (PUBLIC_URL, COOKIE_SECURE). Every answer carries a Permissions-Policy that turns off the
 * device features the app never uses and allows payments only to the page and Stripe's frames.
 */

const services: AccountService[] = [];
let plain: AccountService;
let proxied: AccountService;
let public_: AccountService;

beforeAll(async () => {
  plain = await startAccountService({ publicUrl: 'http://192.168.1.20:3000' });
  proxied = await startAccountService({
    publicUrl: 'http://app.internal:3000',
    trustProxy: ['127.0.0.1'],
  });
  public_ = await startAccountService({
    publicUrl: 'https://conformly.example',
    secureCookies: true,
  });
  services.push(plain, proxied, public_);
});
afterAll(async () => {
  for (const service of services) await service.close();
});

const get = (
  service: AccountService,
  remoteAddress = '127.0.0.1',
  headers: Record<string, string> = {},
) => service.app.inject({ method: 'GET', url: '/api/csrf-token', remoteAddress, headers });

describe('Strict-Transport-Security', () => {
  it('is not sent over plain http', async () => {
    const response = await get(plain);
    expect(response.statusCode).toBe(200);
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('is not sent when an untrusted caller claims https', async () => {
    const claimed = await get(plain, '203.0.113.9', { 'x-forwarded-proto': 'https' });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
    const notTheProxy = await get(proxied, '203.0.113.9', { 'x-forwarded-proto': 'https' });
    expect(notTheProxy.headers['strict-transport-security']).toBeUndefined();
  });

  it('is sent when the trusted proxy says the browser came over https', async () => {
    const response = await get(proxied, '127.0.0.1', { 'x-forwarded-proto': 'https' });
    expect(response.headers['strict-transport-security']).toBe(
      'max-age=31536000; includeSubDomains',
    );
    const overHttp = await get(proxied, '127.0.0.1', { 'x-forwarded-proto': 'http' });
    expect(overHttp.headers['strict-transport-security']).toBeUndefined();
  });

  it('is sent when the public address is https (TLS ends at a proxy)', async () => {
    const response = await get(public_);
    expect(response.headers['strict-transport-security']).toBe(
      'max-age=31536000; includeSubDomains',
    );
  });
});

describe('Permissions-Policy', () => {
  it('turns off the device features the app does not use, on every answer', async () => {
    for (const response of [
      await get(plain),
      await plain.app.inject({ method: 'GET', url: '/api/no-such-route' }),
    ]) {
      const policy = String(response.headers['permissions-policy'] ?? '');
      for (const feature of ['camera', 'microphone', 'geolocation', 'usb', 'serial', 'hid']) {
        expect(policy).toMatch(new RegExp(`(^|, )${feature}=\\(\\)(,|$)`));
      }
    }
  });

  it("allows payments to the page itself and Stripe's frames only", async () => {
    const policy = String((await get(plain)).headers['permissions-policy']);
    expect(policy).toContain('payment=(self "https://js.stripe.com" "https://*.js.stripe.com")');
  });
});

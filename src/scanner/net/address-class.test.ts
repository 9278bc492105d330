import { describe, expect, it } from 'vitest';
import { classifyAddress } from './address-class.js';

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.0.0.2', 'loopback'],
    ['127.1', 'loopback'],
    ['2130706433', 'loopback'], // decimal
    ['0x7f000001', 'loopback'], // hex
    ['0177.0.0.1', 'loopback'], // octal
    ['0x7f.1', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['::ffff:127.0.0.1', 'loopback'], // IPv4-mapped, dotted
    ['::ffff:7f00:1', 'loopback'], // IPv4-mapped, hex
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['64:ff9b::a9fe:a9fe', 'metadata'], // NAT64 of 169.254.169.254
    ['2002:c0a8:0101::1', 'private'], // 6to4 of 192.168.1.1
    ['2001::1', 'teredo'],
    ['::7f00:1', 'loopback'], // IPv4-compatible ::127.0.0.1
    ['::a9fe:a9fe', 'metadata'],
    ['::ffff:0:a00:1', 'private'], // SIIT of 10.0.0.1
    ['64:ff9b:1::7f00:1', 'loopback'], // local-use NAT64
    ['2a00:1450::5efe:a00:1', 'private'], // ISATAP of 10.0.0.1
    ['::1:7f00:1', 'reserved'], // outside 2000::/3
    ['3fff::1', 'reserved'],
    ['not-an-ip', 'invalid'],
  ])('blocks %s as %s', (address, range) => {
    const verdict = classifyAddress(address);
    expect(verdict.blocked).toBe(true);
    expect(verdict.range).toBe(range);
  });

  it.each([
    '8.8.8.8',
    '93.184.215.14',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2002:0808:0808::1',
  ])('lets the public address %s through', (address) => {
    expect(classifyAddress(address).blocked).toBe(false);
  });

  it('names the IPv4 address inside an IPv6 form', () => {
    const verdict = classifyAddress('::ffff:127.0.0.1');
    expect(verdict.blocked && verdict.label).toBe('a loopback address in IPv6 form (127.0.0.1)');
  });
});

import ipaddr from 'ipaddr.js';

/**
 * Why an address may not be scanned. Each entry reads as the end of a sentence:
 * "127.0.0.1 is a loopback address".
 */
const RANGE_LABELS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local (private) IPv6 address',
  carrierGradeNat: 'a carrier-grade NAT (shared) address',
  multicast: 'a multicast address',
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  reserved: 'a reserved address',
  benchmarking: 'a benchmarking address',
  deprecatedSiteLocal: 'a site-local (private) IPv6 address',
  discard: 'a discard-only IPv6 address',
  teredo: 'a Teredo tunnel address',
  as112: 'an AS112 address',
  as112v6: 'an AS112 address',
  amt: 'an AMT relay address',
  deprecatedOrchid: 'an ORCHID address',
  orchid2: 'an ORCHID address',
  droneRemoteIdProtocolEntityTags: 'a reserved address',
};

/** Instance metadata services hand out cloud credentials; they get their own, louder label. */
const METADATA_ADDRESSES = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, DigitalOcean
  '169.254.170.2', // AWS ECS task metadata
  '100.100.100.200', // Alibaba Cloud
  'fd00:ec2::254', // AWS over IPv6
]);

const GLOBAL_UNICAST_V6 = {
  range: ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number],
  has(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
    return address.kind() === 'ipv6' && (address as ipaddr.IPv6).match(this.range);
  },
};

export const METADATA_HOSTNAMES = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
]);

export type AddressClass =
  | { blocked: false; address: string; range: 'unicast' }
  | { blocked: true; address: string; range: string; label: string };

/** True for anything ipaddr.js reads as an IP, including decimal, octal and hex IPv4 forms. */
export function isIpLiteral(text: string): boolean {
  return ipaddr.isValid(stripBrackets(text));
}

/**
 * Classifies one IP address. Only globally routed unicast addresses pass; IPv6 forms that carry an
 * IPv4 address (mapped, NAT64, 6to4) are judged by the IPv4 address inside them, so
 * ::ffff:127.0.0.1 is as loopback as 127.0.0.1. IPv4-compatible (::127.0.0.1), NAT64 (64:ff9b::/96 and
 * 64:ff9b:1::/48), SIIT (::ffff:0:0/96), 6to4 and ISATAP forms are read the same way.
 */
export function classifyAddress(text: string): AddressClass {
  const raw = stripBrackets(text.trim());
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(raw);
  } catch {
    return { blocked: true, address: raw, range: 'invalid', label: 'not a valid IP address' };
  }
  const address = parsed.toString();
  const embedded = embeddedIPv4(parsed);
  if (embedded) {
    const inner = classifyAddress(embedded.toString());
    return inner.blocked
      ? { ...inner, address, label: `${inner.label} in IPv6 form (${embedded.toString()})` }
      : inner;
  }
  if (METADATA_ADDRESSES.has(address)) {
    return { blocked: true, address, range: 'metadata', label: 'a cloud metadata address' };
  }
  const range = parsed.range();
  if (range === 'unicast' && parsed.kind() === 'ipv6' && !GLOBAL_UNICAST_V6.has(parsed)) {
    // Only 2000::/3 is handed out as global unicast; the rest of the space is reserved.
    return { blocked: true, address, range: 'reserved', label: 'a reserved IPv6 address' };
  }
  if (range === 'unicast') return { blocked: false, address, range };
  return { blocked: true, address, range, label: RANGE_LABELS[range] ?? 'a non-public address' };
}

function embeddedIPv4(parsed: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | undefined {
  if (parsed.kind() !== 'ipv6') return undefined;
  const v6 = parsed as ipaddr.IPv6;
  const range = v6.range();
  const bytes = v6.toByteArray();
  const lastFour = () => ipaddr.IPv4.parse(bytes.slice(12, 16).join('.'));
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') return lastFour();
  if (range === '6to4') return ipaddr.IPv4.parse(bytes.slice(2, 6).join('.'));
  // IPv4-compatible (::a.b.c.d, deprecated by RFC 4291 but still parsed): ::127.0.0.1 is ::7f00:1.
  // :: and ::1 are themselves unspecified and loopback and are judged as such.
  if (bytes.slice(0, 12).every((byte) => byte === 0) && range === 'unicast') return lastFour();
  // ISATAP interface identifiers (…:0:5efe:a.b.c.d, …:200:5efe:a.b.c.d) carry an IPv4 address.
  if (
    bytes[10] === 0x5e &&
    bytes[11] === 0xfe &&
    (bytes[8] === 0 || bytes[8] === 2) &&
    bytes[9] === 0
  ) {
    return lastFour();
  }
  return undefined;
}

function stripBrackets(text: string): string {
  return text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
}

import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';

// Server-side request forgery guard of webhook targets (docs/webhooks.md): a key must not make the
// service POST into its own network (databases, metadata endpoints, admin ports) or anything that is
// not an ordinary public host. An address is allowed only when it is global unicast: ipaddr.js's
// `range()` names every special-purpose range of the IANA IPv4 and IPv6 registries it knows (private,
// loopback, link-local, CGNAT, documentation, benchmarking, NAT64, 6to4, Teredo, IPv4-mapped,
// multicast, reserved, ...), which must say 'unicast'; the ranges it does not name are listed below;
// and the addresses of this host's own interfaces are refused too (a public address of the machine
// reaches its admin ports as well as 127.0.0.1 does). WEBHOOK_ALLOW_PRIVATE_TARGETS lifts the guard
// (tests and the local demo deliver to 127.0.0.1). The check runs on the URL at registration
// (literal addresses, localhost) and on every address the target's name resolves to at each
// delivery (src/webhooks/send.ts), so a name later pointed inward is refused too.

/** IPv6 special-purpose ranges ipaddr.js does not name (its range() says 'unicast' for them). */
const IPV6_EXTRA: ReadonlyArray<[string, number]> = [
  ['::', 96], // IPv4-compatible ::a.b.c.d (RFC 4291, deprecated): some stacks still route it to a.b.c.d
  ['100:0:0:1::', 64], // dummy IPv6 prefix (RFC 9780)
];
const IPV6_EXTRA_PARSED = IPV6_EXTRA.map(([net, bits]) => [ipaddr.IPv6.parse(net), bits] as [ipaddr.IPv6, number]);
/** Global unicast IPv6 is 2000::/3 (RFC 4291); everything else is special or unallocated. */
const IPV6_GLOBAL: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('2000::'), 3];

/** The addresses of this host's network interfaces, in ipaddr.js's normal form. */
function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const list of Object.values(networkInterfaces())) {
    for (const entry of list ?? []) {
      if (ipaddr.isValid(entry.address)) own.add(ipaddr.parse(entry.address).toNormalizedString());
    }
  }
  return own;
}

/**
 * True when `address` (IPv4 or IPv6, bracketed or with a zone) may not be a webhook target: it is not
 * global unicast, or it is one of this host's own addresses. Text that is not an IP address is false.
 */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!isIP(bare) && !ipaddr.isValid(bare)) return false;
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(bare);
  } catch {
    return true; // an address Node accepts but ipaddr.js cannot read: refuse rather than guess
  }
  if (ip.range() !== 'unicast') return true;
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (!v6.match(IPV6_GLOBAL) || IPV6_EXTRA_PARSED.some((range) => v6.match(range))) return true;
  }
  return ownAddresses().has(ip.toNormalizedString());
}

/** True when a URL's host is a literal refused address (isPrivateAddress) or a localhost name. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || isPrivateAddress(host);
}

import { BlockList, isIP } from 'node:net';

// Server-side request forgery guard of webhook targets (docs/webhooks.md): a key must not make the
// service POST into its own network (databases, metadata endpoints, admin ports). Addresses of
// private, loopback, link-local, carrier-grade NAT and unspecified ranges are refused unless
// WEBHOOK_ALLOW_PRIVATE_TARGETS is set (tests and the local demo deliver to 127.0.0.1). The check runs
// on the URL at registration (literal addresses, localhost) and on every address the target's name
// resolves to at each delivery (src/webhooks/send.ts), so a name later pointed inward is refused too.

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

/** True when `address` (IPv4 or IPv6, IPv4-mapped included) is not a public unicast address. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  const family = isIP(bare);
  if (family === 4) return PRIVATE.check(bare, 'ipv4');
  if (family === 6) return PRIVATE.check(bare, 'ipv6');
  return false;
}

/** True when a URL's host is a literal private address or a localhost name. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || isPrivateAddress(host);
}

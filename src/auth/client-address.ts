import ipaddr from 'ipaddr.js';

/**
 * The address a request without a key is counted under (the `anonymous` rate budget): an IPv4
 * address as it is (also when it arrives IPv4-mapped, `::ffff:a.b.c.d`), an IPv6 address by its /64
 * network, since one customer line or host is usually given a whole /64 and could otherwise take a
 * new budget per address. The peer of the TCP connection: behind a proxy, the proxy's address.
 */
export function clientAddress(remoteAddress: string | undefined): string {
  if (!remoteAddress || !ipaddr.isValid(remoteAddress)) return 'unknown';
  const address = ipaddr.process(remoteAddress);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}

import os from 'node:os';
import { isPrivateAddress, isPrivateHost } from '../../src/services/webhook-target';

describe('webhook targets (SSRF guard)', () => {
  test.each([
    '127.0.0.1', '127.8.9.1', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '224.0.0.1', '::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.1.1.1', '[::1]',
    '192.0.2.1', '198.51.100.1', '203.0.113.1', '198.18.0.1', '240.0.0.1', '255.255.255.255', '64:ff9b::7f00:1', '64:ff9b:1::1', '2002:7f00:1::',
    '2001::1', '2001:db8::1', '::127.0.0.1', '::ffff:8.8.8.8', 'fe80::1%eth0', '3fff::1', '5f00::1', '100::1',
  ])('when the address is %s, then it is private', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  test.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', 'example.com'])('when the address is %s, then it is not private', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  test.each([
    ['localhost', true],
    ['LOCALHOST.', true],
    ['api.localhost', true],
    ['hooks.example.com', false],
    ['10.2.3.4', true],
  ])('when the host is %s, then private is %s', (host, expected) => {
    expect(isPrivateHost(host)).toBe(expected);
  });

  test("when a public address is one of this host's own interface addresses, then it is refused in any spelling", () => {
    const spy = jest.spyOn(os, 'networkInterfaces').mockReturnValue({
      eth0: [
        { address: '8.8.4.4', netmask: '255.255.255.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: false, cidr: '8.8.4.4/24' },
        { address: '2a00:1450:4001::5', netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', mac: '00:00:00:00:00:00', internal: false, cidr: '2a00:1450:4001::5/64', scopeid: 0 },
      ],
    });
    try {
      for (const own of ['8.8.4.4', '2a00:1450:4001::5', '[2a00:1450:4001:0:0:0:0:5]', '2A00:1450:4001::0005']) expect([own, isPrivateAddress(own)]).toEqual([own, true]);
      for (const other of ['8.8.4.5', '2a00:1450:4001::6']) expect([other, isPrivateAddress(other)]).toEqual([other, false]);
    } finally {
      spy.mockRestore();
    }
  });
});

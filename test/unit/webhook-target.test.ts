import { isPrivateAddress, isPrivateHost } from '../../src/graphql/webhook-target';

describe('webhook targets (SSRF guard)', () => {
  test.each([
    '127.0.0.1', '127.8.9.1', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '224.0.0.1', '::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.1.1.1', '[::1]',
  ])('when the address is %s, then it is private', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  test.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', 'example.com'])('when the address is %s, then it is not private', (address) => {
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
});

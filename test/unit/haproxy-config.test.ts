import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HAPROXY_CFG } from '../../src/cli/cluster';
import { localHaproxyConfig } from '../../src/cli/haproxy-config';

// deploy/haproxy.cfg is the one truth of the balancer: compose.yaml mounts it, and `odds cluster`
// runs it with local addresses (src/cli/haproxy-config.ts). Issue 39: no request lost to a dying
// process, and a dead process out of the pool within about 2 s.

const committed = fs.readFileSync(HAPROXY_CFG, 'utf8');
const haproxy = spawnSync('haproxy', ['-v']).status === 0;
const backend = committed.slice(committed.indexOf('backend api'));
const setting = (name: string) => new RegExp(`^\\s*${name}\\b.*$`, 'm').exec(backend)?.[0].trim();

describe('deploy/haproxy.cfg', () => {
  test('when read, then idempotent requests are retried on another process (no answer, timeout, 503), others only when they never reached one', () => {
    expect(setting('retries')).toBe('retries 3');
    expect(setting('option redispatch')).toBe('option redispatch 1');
    expect(setting('retry-on')!.split(/\s+/).slice(1).sort()).toEqual(['503', 'conn-failure', 'empty-response', 'response-timeout']);
    expect(setting('http-request disable-l7-retry')).toBe('http-request disable-l7-retry unless METH_GET');
  });

  test('when read, then a process leaves the pool within about 2 s of dying or of answering /readyz 503', () => {
    const server = setting('default-server')!;
    const value = (name: string) => new RegExp(`\\b${name} (\\S+)`).exec(server)?.[1];
    const ms = (v: string | undefined) => (v?.endsWith('ms') ? Number(v.slice(0, -2)) : Number(v?.replace(/s$/, '')) * 1000);
    expect(server).toMatch(/\bcheck\b/);
    expect(ms(value('inter')) * Number(value('fall'))).toBeLessThanOrEqual(2000);
    expect(ms(value('fastinter'))).toBeLessThanOrEqual(ms(value('inter')));
    expect(value('observe')).toBe('layer4');
    expect(value('on-error')).toBe('mark-down');
    expect(setting('option httpchk')).toBe('option httpchk GET /readyz');
  });

  (haproxy ? test : test.skip)('when checked by haproxy -c, then the committed file is valid', () => {
    const check = spawnSync('haproxy', ['-c', '-f', HAPROXY_CFG], { encoding: 'utf8' });
    expect(check.stdout + check.stderr).toMatch(/Configuration file is valid/);
  });
});

describe('localHaproxyConfig', () => {
  const servers = [
    { name: 'api1', host: '127.0.0.1', port: 21001 },
    { name: 'api2', host: '127.0.0.1', port: 21002 },
    { name: 'api3', host: '127.0.0.1', port: 21003 },
  ];
  const local = localHaproxyConfig(committed, { host: '127.0.0.1', port: 28080, servers });

  test('when made from deploy/haproxy.cfg, then only the bind, resolvers and server lines change', () => {
    expect(local).toMatch(/^\s*bind 127\.0\.0\.1:28080$/m);
    expect(local.split('\n').filter((l) => !/^\s*#/.test(l) && /\b(resolvers|init-addr|nameserver)\b/.test(l))).toEqual([]);
    expect(local.match(/^\s*server .*$/gm)!.map((l) => l.trim())).toEqual([
      'server api1 127.0.0.1:21001 cookie api1',
      'server api2 127.0.0.1:21002 cookie api2',
      'server api3 127.0.0.1:21003 cookie api3',
    ]);
    // Everything else as written: the lines of the committed file without the replaced ones.
    const kept = (text: string) => text.split('\n').filter((l) => l.trim() && !/^\s*(bind|server|default-server|nameserver)\b|^resolvers\b/.test(l));
    expect(kept(local)).toEqual(kept(committed));
    expect(local).toContain(setting('default-server')!.replace(/ resolvers \S+| init-addr \S+/g, ''));
  });

  test('when the file has no server line, then it says its shape changed', () => {
    expect(() => localHaproxyConfig('global\n  log stdout format raw local0\n', { host: '127.0.0.1', port: 1, servers })).toThrow(/no bind or no server line/);
  });

  (haproxy ? test : test.skip)('when checked by haproxy -c, then the local configuration is valid', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odds-haproxy-'));
    try {
      fs.writeFileSync(path.join(dir, 'haproxy.cfg'), local);
      const check = spawnSync('haproxy', ['-c', '-f', path.join(dir, 'haproxy.cfg')], { encoding: 'utf8' });
      expect(check.stdout + check.stderr).toMatch(/Configuration file is valid/);
      expect(check.stdout + check.stderr).not.toMatch(/WARNING/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

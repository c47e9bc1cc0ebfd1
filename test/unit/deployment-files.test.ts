import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

// The container files as an operator uses them (no Docker daemon in CI): the Dockerfile builds in one
// stage and runs the built tree non-root with production dependencies only; compose.yaml wires
// PostgreSQL, Redis, one ingester and two API processes behind HAProxy with sticky sessions.

const ROOT = path.join(__dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

describe('Dockerfile', () => {
  const lines = read('Dockerfile').split('\n');
  const stages = lines.map((l, i) => [l, i] as const).filter(([l]) => /^FROM /.test(l));
  const runtime = lines.slice(stages.at(-1)![1]).join('\n');

  test('when read, then a build stage compiles dist/ and the runtime stage installs production dependencies only, as a non-root user, running odds serve', () => {
    expect(stages).toHaveLength(2);
    expect(stages[0]![0]).toMatch(/^FROM node:24\S* AS build$/);
    expect(lines.slice(0, stages[1]![1]).join('\n')).toMatch(/npm ci\b[^\n]*\\\n\s+&& test -f dist\/cli\/index.js/);
    expect(runtime).toMatch(/COPY --from=build /);
    expect(runtime).toMatch(/npm ci --omit=dev/);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toContain('ENTRYPOINT ["node", "bin/odds.js"]');
    expect(runtime).toContain('CMD ["serve"]');
  });

  test('when read, then the build context leaves out node_modules, dist and the tests', () => {
    const ignored = read('.dockerignore').split('\n').map((l) => l.trim());
    for (const entry of ['node_modules', 'dist', 'test', '.git', 'data']) expect(ignored).toContain(entry);
  });
});

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, any> };
  const { services } = compose;

  test('when parsed, then it runs PostgreSQL, Redis, one ingester and two API processes on them, behind an official HAProxy image', () => {
    expect(Object.keys(services).sort()).toEqual(['api1', 'api2', 'ingester', 'lb', 'postgres', 'redis']);
    expect(services.postgres.image).toMatch(/^postgres:/);
    expect(services.redis.image).toMatch(/^redis:/);
    expect(services.lb.image).toMatch(/^haproxy:/);
    expect(services.ingester.command).toEqual(['serve', '--simulate']);
    for (const api of ['api1', 'api2']) {
      expect(services[api].command).toEqual(['serve']);
      expect(services[api].build).toBe('.');
      expect(services[api].environment.DATABASE_URL).toMatch(/^postgresql:\/\/\w+:\w+@postgres:5432\//);
      expect(services[api].environment.REDIS_URL).toBe('redis://redis:6379');
      expect(services[api].depends_on.ingester.condition).toBe('service_healthy');
    }
    expect(services.ingester.environment.DATABASE_URL).toBe(services.api1.environment.DATABASE_URL);
  });

  test('when parsed, then the load balancer mounts the committed HAProxy configuration, which balances the two API processes with a sticky cookie', () => {
    const mount = (services.lb.volumes as string[]).find((v) => v.endsWith(':/usr/local/etc/haproxy/haproxy.cfg:ro'))!;
    const cfg = read(mount.split(':')[0]!);
    expect(cfg).toMatch(/^\s*cookie SERVERID insert indirect nocache$/m);
    expect(cfg).toMatch(/^\s*server api1 api1:3000 cookie api1$/m);
    expect(cfg).toMatch(/^\s*server api2 api2:3000 cookie api2$/m);
    expect(cfg).toMatch(/^\s*option httpchk GET \/readyz$/m);
    const port = /^\s*bind :(\d+)$/m.exec(cfg)![1];
    expect(services.lb.ports).toEqual([expect.stringMatching(new RegExp(`:${port}$`))]);
  });
});

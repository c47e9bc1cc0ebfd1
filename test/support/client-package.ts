import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

// An offline install of the packed TypeScript client (clients/typescript) in an empty folder: the
// tests have no network but loopback, and `npm install <tarball>` would ask the registry for the
// metadata of its dependencies. The repository's lockfile already pins every one of them (the
// client's dependencies are the root's: openapi-fetch, socket.io-client, eventsource), and the npm
// cache holds their tarballs since the root's install, so a lockfile for the folder, made of the
// tarball and the root lockfile's entries of its dependencies (and theirs), lets `npm ci --offline`
// install them from the cache, each checked against its integrity as from the registry.

const ROOT = path.join(__dirname, '..', '..');

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  dev?: boolean;
  devOptional?: boolean;
  peer?: boolean;
  [key: string]: unknown;
}

/** Writes package.json and package-lock.json into `app` so that `npm ci --offline` installs `tarball`. */
export function writeOfflineInstall(tarball: string, app: string): void {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const client = JSON.parse(fs.readFileSync(path.join(ROOT, 'clients', 'typescript', 'package.json'), 'utf8')) as { name: string; version: string; license: string; dependencies: Record<string, string> };
  const packages: Record<string, LockEntry> = {};
  // Where Node (and npm) finds `name` required from the package at `from`: its own node_modules, then each parent's.
  const locate = (from: string, name: string): string => {
    for (let dir = from; ; ) {
      const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      if (lock.packages[candidate]) return candidate;
      if (!dir) throw new Error(`${name} (needed by ${from || 'the client'}) is not in package-lock.json`);
      const parent = dir.lastIndexOf('/node_modules/');
      dir = parent < 0 ? '' : dir.slice(0, parent);
    }
  };
  const visit = (from: string, deps: Record<string, string> = {}) => {
    for (const name of Object.keys(deps)) {
      const at = locate(from, name);
      if (packages[at]) continue;
      // Dependencies of the client here, whatever the root's lockfile says of them (devDependencies there).
      const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = lock.packages[at]!;
      packages[at] = entry;
      visit(at, entry.dependencies);
      visit(at, entry.optionalDependencies);
    }
  };
  visit('', client.dependencies);
  const file = `file:${path.relative(app, tarball)}`;
  const integrity = `sha512-${createHash('sha512').update(fs.readFileSync(tarball)).digest('base64')}`;
  const manifest = { name: 'client-example', private: true, dependencies: { [client.name]: file } };
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify(manifest, null, 2));
  fs.writeFileSync(
    path.join(app, 'package-lock.json'),
    JSON.stringify(
      {
        name: manifest.name,
        lockfileVersion: 3,
        requires: true,
        packages: {
          '': manifest,
          [`node_modules/${client.name}`]: { version: client.version, resolved: file, integrity, license: client.license, dependencies: client.dependencies },
          ...packages,
        },
      },
      null,
      2,
    ),
  );
}

/** The code block of `readme` that follows the `<!-- example: name ... -->` marker. */
export function readmeExample(readme: string, name: string): string {
  const match = new RegExp(`<!-- example: ${name}\\b[^>]*-->\\s*\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (!match) throw new Error(`no example ${name} in the README`);
  return match[1]!;
}

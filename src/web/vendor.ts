import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The browser bundles the pages load, each a file shipped inside an npm package (installed with the
 * service, so nothing is fetched from the web at run time). The URL name is ours; the file is the
 * package's prebuilt browser build.
 */
export const VENDOR_FILES: Readonly<Record<string, { pkg: string; file: string }>> = {
  'scalar-api-reference.js': { pkg: '@scalar/api-reference', file: 'dist/browser/standalone.js' },
  'graphiql.js': { pkg: 'graphiql', file: 'graphiql.min.js' },
  'graphiql.css': { pkg: 'graphiql', file: 'graphiql.min.css' },
  'react.js': { pkg: 'react', file: 'umd/react.production.min.js' },
  'react-dom.js': { pkg: 'react-dom', file: 'umd/react-dom.production.min.js' },
  'uplot.js': { pkg: 'uplot', file: 'dist/uPlot.iife.min.js' },
  'uplot.css': { pkg: 'uplot', file: 'dist/uPlot.min.css' },
  'socket.io.js': { pkg: 'socket.io-client', file: 'dist/socket.io.min.js' },
};

/**
 * The absolute path of a vendor file, found in the node_modules folders Node would search from here
 * (a package's `exports` map may hide its browser builds from require.resolve, so the folder is
 * located and the file joined to it). Undefined when the name is unknown or the package is missing.
 */
export function vendorFilePath(name: string): string | undefined {
  const entry = Object.hasOwn(VENDOR_FILES, name) ? VENDOR_FILES[name] : undefined;
  if (!entry) return undefined;
  for (const dir of require.resolve.paths(entry.pkg) ?? []) {
    const candidate = path.join(dir, entry.pkg, entry.file);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

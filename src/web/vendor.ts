import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface VendorFile {
  pkg: string;
  file: string;
  /** A change made to the file's text before it is served (done once, kept in memory). */
  rewrite?: (text: string) => string;
}

/**
 * The browser bundles the pages load, each a file shipped inside an npm package (a devDependency,
 * copied into dist/ by the build), so nothing is fetched from the web at run time. The URL name is
 * ours; the file is the package's prebuilt browser build.
 */
export const VENDOR_FILES: Readonly<Record<string, VendorFile>> = {
  // Its @font-face rules load the theme's fonts from the vendor's own host whatever the options say
  // (withDefaultFonts: false does not stop it): they are pointed at fonts installed on the machine.
  'scalar-api-reference.js': {
    pkg: '@scalar/api-reference',
    file: 'dist/browser/standalone.js',
    rewrite: (text) => text.replace(/url\(https:\/\/fonts\.scalar\.com\/(inter|mono)[^)]*\)\s*format\("woff2"\)/g, (_m, face: string) => (face === 'inter' ? 'local("Inter")' : 'local("JetBrains Mono")')),
  },
  'graphiql.js': { pkg: 'graphiql', file: 'graphiql.min.js' },
  'graphiql.css': { pkg: 'graphiql', file: 'graphiql.min.css' },
  'react.js': { pkg: 'react', file: 'umd/react.production.min.js' },
  'react-dom.js': { pkg: 'react-dom', file: 'umd/react-dom.production.min.js' },
  'uplot.js': { pkg: 'uplot', file: 'dist/uPlot.iife.min.js' },
  'uplot.css': { pkg: 'uplot', file: 'dist/uPlot.min.css' },
  'socket.io.js': { pkg: 'socket.io-client', file: 'dist/socket.io.min.js' },
};

/** Where the build copies the vendor files (scripts/build-web.js), beside the compiled code. */
const BUILT_VENDOR_DIR = path.join(__dirname, 'vendor');

/**
 * The absolute path of a vendor file: the build's copy (dist/web/vendor/, all a production install
 * has), else the file in the node_modules folders Node would search from here (a package's `exports`
 * map may hide its browser builds from require.resolve, so the folder is located and the file joined
 * to it). Undefined when the name is unknown or the file is nowhere.
 */
export function vendorFilePath(name: string, options: { packagesOnly?: boolean } = {}): string | undefined {
  const entry = vendorFile(name);
  if (!entry) return undefined;
  const built = path.join(BUILT_VENDOR_DIR, name);
  if (!options.packagesOnly && existsSync(built)) return built;
  for (const dir of require.resolve.paths(entry.pkg) ?? []) {
    const candidate = path.join(dir, entry.pkg, entry.file);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

export function vendorFile(name: string): VendorFile | undefined {
  return Object.hasOwn(VENDOR_FILES, name) ? VENDOR_FILES[name] : undefined;
}

const rewritten = new Map<string, string>();

/** The text of a vendor file that is rewritten before serving, or undefined for files served as they are. */
export function rewrittenVendorFile(name: string): string | undefined {
  const entry = vendorFile(name);
  const file = vendorFilePath(name);
  if (!entry?.rewrite || !file) return undefined;
  let text = rewritten.get(name);
  if (text === undefined) rewritten.set(name, (text = entry.rewrite(readFileSync(file, 'utf8'))));
  return text;
}

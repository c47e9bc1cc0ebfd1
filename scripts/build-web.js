#!/usr/bin/env node
// After tsc: make dist/web/ whole. Copies our page scripts and styles (src/web/assets/) and the
// browser bundles the pages load (src/web/vendor.ts says which file of which package) into
// dist/web/. Those packages are devDependencies, so a production install (`npm ci --omit=dev` on a
// built tree) serves the copies and carries none of the packages.
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const { VENDOR_FILES, vendorFilePath, vendorFile } = require(path.join(root, 'dist', 'web', 'vendor.js'));
const out = path.join(root, 'dist', 'web', 'vendor');
fs.mkdirSync(out, { recursive: true });
for (const name of Object.keys(VENDOR_FILES)) {
  const source = vendorFilePath(name, { packagesOnly: true });
  if (!source) {
    process.stderr.write(`build-web: ${VENDOR_FILES[name].pkg}/${VENDOR_FILES[name].file} is not installed (run npm ci)\n`);
    process.exit(1);
  }
  const { rewrite } = vendorFile(name);
  if (rewrite) fs.writeFileSync(path.join(out, name), rewrite(fs.readFileSync(source, 'utf8')));
  else fs.copyFileSync(source, path.join(out, name));
}
fs.cpSync(path.join(root, 'src', 'web', 'assets'), path.join(root, 'dist', 'web', 'assets'), { recursive: true });

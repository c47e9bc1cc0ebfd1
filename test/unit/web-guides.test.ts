import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderGuide, siteHref } from '../../src/web/guides';

// Links between the docs/*.md guides lead to their pages on the served site; anything else stays.
describe('siteHref', () => {
  test.each([
    ['live-protocol.md', '/docs/guides/live-protocol'],
    ['live.md#benchmark', '/docs/guides/live#benchmark'],
    ['docs/api.md#rate-limits', '/docs/guides/api#rate-limits'],
    ['./cli.md', '/docs/guides/cli'],
    ['../docs/storage.md', '/docs/guides/storage'],
    ['README.md', '/docs'],
    ['../../docs/value-metrics.md', '../../docs/value-metrics.md'],
    ['../src/domain/README.md', '../src/domain/README.md'],
    ['#the-ev-object', '#the-ev-object'],
    ['/api/v1/openapi.json', '/api/v1/openapi.json'],
    ['notes.txt', 'notes.txt'],
  ])('when a guide links %s, then the page links %s', (href, expected) => {
    expect(siteHref(href)).toBe(expected);
  });
});

describe('renderGuide', () => {
  test('when a guide links a file of the repository that the site does not serve, then the page names the file instead of a dead link', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odds-guides-'));
    try {
      fs.writeFileSync(path.join(dir, 'links.md'), '# Links\n\nSee [the client](../clients/typescript/README.md), [the protocol](live-protocol.md) and [the spec](https://example.com/x).\n');
      const { html } = renderGuide('links', dir)!;
      expect(html).toContain('See the client (<code>clients/typescript/README.md</code> in the repository), <a href="/docs/guides/live-protocol">the protocol</a> and <a href="https://example.com/x">the spec</a>.');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('when a guide writes approximations with single tildes, then nothing is struck through; a double tilde still strikes', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odds-guides-'));
    try {
      fs.writeFileSync(path.join(dir, 'approx.md'), '# Approx\n\nThe ingest slowed ~1.6x and the baseline ~1.3x (**both**). ~~Gone~~ now.\n');
      const { html } = renderGuide('approx', dir)!;
      expect(html).toContain('<p>The ingest slowed ~1.6x and the baseline ~1.3x (<strong>both</strong>). <del>Gone</del> now.</p>');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

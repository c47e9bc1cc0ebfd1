import { siteHref } from '../../src/web/guides';

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

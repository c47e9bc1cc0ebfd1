import type { Browser, Request } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app';
import { browserAvailable, launchBrowser } from '../support/browser';

// The docs site at /docs: public pages (no key), everything served by this server. The HTML and our
// own scripts are scanned for other hosts; the pages are then opened in Chromium, which must render
// the REST reference, GraphiQL (sending the user's key) and the guides without any request leaving.

const PAGES = ['/', '/docs', '/docs/api', '/docs/graphql', '/docs/asyncapi', '/docs/guides/live-protocol'];

/** http(s) origins written in a text, other than `own`. */
function foreignOrigins(text: string, own: string): string[] {
  return [...new Set([...text.matchAll(/https?:\/\/[A-Za-z0-9.-]+(?::\d+)?/g)].map((m) => m[0]))].filter((o) => o !== own);
}

describe('docs site over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  test.each(PAGES)('when %s is fetched without a key, then it answers HTML 200', async (path) => {
    const res = await fetch(t.baseUrl + path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(await res.text()).toMatch(/^<!doctype html>/);
  });

  test('when the pages and the scripts and styles they name are read, then none names another host', async () => {
    const found: string[] = [];
    const assets = new Set<string>();
    for (const path of PAGES) {
      const html = await (await fetch(t.baseUrl + path)).text();
      found.push(...foreignOrigins(html, t.baseUrl).map((o) => `${path}: ${o}`));
      for (const m of html.matchAll(/(?:src|href)="([^"]+)"/g)) {
        expect(m[1]).toMatch(/^(\/|#)/); // every script, style and link is this server's
        if (m[1]!.startsWith('/assets/') && !m[1]!.startsWith('/assets/vendor/')) assets.add(m[1]!);
      }
    }
    expect(assets.size).toBeGreaterThan(4);
    for (const asset of assets) {
      const res = await fetch(t.baseUrl + asset);
      expect(res.status).toBe(200);
      found.push(...foreignOrigins(await res.text(), t.baseUrl).map((o) => `${asset}: ${o}`));
    }
    expect(found).toEqual([]);
  });

  test('when a vendor bundle is fetched, then it is served from the installed package', async () => {
    for (const name of ['scalar-api-reference.js', 'graphiql.js', 'react.js', 'react-dom.js', 'uplot.js', 'socket.io.js']) {
      const res = await fetch(`${t.baseUrl}/assets/vendor/${name}`);
      expect([name, res.status, res.headers.get('content-type')]).toEqual([name, 200, expect.stringMatching(/javascript/)]);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    }
  });

  test('when a guide is read, then its Markdown is rendered as HTML', async () => {
    const html = await (await fetch(`${t.baseUrl}/docs/guides/live-protocol`)).text();
    expect(html).toMatch(/<h1[^>]*>Live protocol/);
    expect(html).toContain('<table>');
  });

  test.each([
    ['/docs/guides/no-such-guide', 404],
    ['/docs/guides/..%2Fpackage', 404],
    ['/docs/guides/.hidden', 404],
    ['/assets/vendor/unknown.js', 404],
    ['/assets/vendor/..%2F..%2Fpackage.json', 404],
    ['/assets/..%2Fsite.ts', 404],
    ['/assets/board.ts', 404],
  ])('when %s is asked, then it answers %i in the JSON error envelope', async (path, status) => {
    const res = await fetch(t.baseUrl + path);
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ success: false, error: expect.any(String) });
  });
});

const run = browserAvailable() ? describe : describe.skip;
// A browser on a busy 2-core machine parses multi-megabyte bundles slowly: generous waits, nothing timed.
const WAIT_MS = 120_000;
jest.setTimeout(WAIT_MS);

run('docs site in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let key: string;
  const requests: Request[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    key = (await t.createKey('elite')).key;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function open(path: string) {
    const page = await browser.newPage();
    page.setDefaultTimeout(WAIT_MS);
    page.on('request', (r) => requests.push(r));
    page.on('pageerror', (e) => errors.push(`${path}: ${e.message}`));
    await page.goto(t.baseUrl + path, { waitUntil: 'domcontentloaded' });
    return page;
  }

  test('when /docs/api opens, then Scalar renders the served OpenAPI document', async () => {
    const served = (await (await fetch(`${t.baseUrl}/api/v1/openapi.json`)).json()) as { openapi: string; info: { title: string } };
    const page = await open('/docs/api');
    await page.getByText(served.info.title, { exact: true }).first().waitFor();
    await page.getByText(`OpenAPI ${served.openapi}`).first().waitFor();
    // An offline, self-hosted service: none of the hosted platform's buttons (they cannot work here).
    await page.locator('.operation, section[id*="tag"], [id^="tag"]').first().waitFor();
    const text = (await page.locator('body').innerText()).replace(/\s+/g, ' ');
    expect(text).not.toMatch(/Ask AI|Generate MCP|Deploy|Open in Cursor|Register/);
    await page.close();
  });

  test('when a key is entered in /docs/graphql, then GraphiQL sends it and shows the answer', async () => {
    const page = await open('/docs/graphql');
    await page.locator('.graphiql-container').waitFor();
    const sent = page.waitForRequest((r) => r.url().endsWith('/graphql') && r.method() === 'POST' && r.headers()['authorization'] === `Bearer ${key}`);
    // GraphiQL loads the schema by introspection (refused by Apollo under NODE_ENV=production unless the service says otherwise).
    const schema = page.waitForResponse(
      (r) => r.url().endsWith('/graphql') && r.request().headers()['authorization'] === `Bearer ${key}` && (r.request().postData() ?? '').includes('__schema'),
    );
    await page.fill('#api-key', key);
    await page.click('#key-form button');
    await sent;
    const introspected = (await (await schema).json()) as { data?: { __schema?: { queryType: { name: string } } }; errors?: unknown };
    expect(introspected.errors).toBeUndefined();
    expect(introspected.data?.__schema?.queryType.name).toBe('Query');
    await page.locator('.graphiql-execute-button').click();
    await page.locator('.result-window').getByText('"__typename": "Query"').waitFor();
    await page.close();
  });

  test('when /docs and a guide open, then the table of contents and the guide show with working links', async () => {
    const page = await open('/docs');
    await expect(page.locator('h1').count()).resolves.toBe(1);
    await page.locator('a[href="/docs/guides/live-protocol"]').first().click();
    await page.locator('h1', { hasText: 'Live protocol' }).waitFor();
    await page.close();
  });

  test('when a guide with wide tables opens on a phone, then the page keeps the screen\'s width and the tables scroll in place', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    page.on('pageerror', (e) => errors.push(`sources (390 px): ${e.message}`));
    await page.goto(`${t.baseUrl}/docs/guides/sources`, { waitUntil: 'load' }); // its stylesheet applied
    // a string: this project's type checking has no DOM types
    const widths = (await page.evaluate(`({
      page: document.documentElement.scrollWidth,
      screen: document.documentElement.clientWidth,
      tables: [...document.querySelectorAll('.doc table')].map((t) => [t.scrollWidth, t.clientWidth]),
    })`)) as { page: number; screen: number; tables: Array<[number, number]> };
    expect(widths.page).toBe(widths.screen);
    // the guide's tables are wider than the phone: each scrolls inside its own box
    expect(widths.tables.some(([content, box]) => content > box)).toBe(true);
    await page.close();
  });

  test('when /docs/asyncapi opens, then it renders the document or says why it could not', async () => {
    const page = await open('/docs/asyncapi');
    await page.locator('#asyncapi h1, #status', { hasNotText: /Loading/ }).first().waitFor();
    const asyncapi = await fetch(`${t.baseUrl}/api/v1/asyncapi.json`);
    const text = await page.locator('#asyncapi').textContent();
    if (asyncapi.ok) {
      expect(text).toMatch(/Operations/);
      // Directions read from the client developer's side: they emit subscribe and receive odds_change.
      await expect(page.locator('#op-subscribe .badge').textContent()).resolves.toMatch(/^you send/);
      await expect(page.locator('#op-receiveOddsChange .badge').textContent()).resolves.toMatch(/^you receive/);
    }
    else expect(text).toMatch(/Could not load the AsyncAPI document: .* answered 404/);
    await page.close();
  });

  test('then no page sent a request to another host, and no script failed', () => {
    const own = new URL(t.baseUrl).host;
    const foreign = requests.map((r) => r.url()).filter((u) => !/^(data|blob):/.test(u) && new URL(u).host !== own);
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
  });
});

import type { Browser, Page } from 'playwright-core';
import { ingestDocuments } from '../../src/ingest/ingest';
import { startTestApp, type TestApp } from '../support/app';
import { browserAvailable, launchBrowser } from '../support/browser';
import { capture, type GameSpec } from './live-helpers';

// The live odds board at /, in real headless Chromium: the user enters a key, sees today's games
// with the best price of each market side (aggregate books never count), value and arbitrage
// highlights and a chart; a change ingested afterwards reaches the page through /live-odds.

const run = browserAvailable() ? describe : describe.skip;
// A browser on a busy 2-core machine parses multi-megabyte bundles slowly: generous waits, nothing timed.
const WAIT_MS = 90_000;
jest.setTimeout(WAIT_MS);

// Tip-off at this minute: the game is in progress and belongs to today's league day whatever the hour.
const start = new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
const game = (fanDuelMoneyline: [number, number]): GameSpec => ({
  id: 7101,
  status: 'inprogress',
  start,
  books: {
    15: { moneyline: [-100, 400] }, // Consensus: an aggregate, never the best price
    68: { moneyline: [-150, 130], spread: [-3.5, -110, -110], total: [220.5, -110, -110] },
    69: { moneyline: fanDuelMoneyline, spread: [-3.5, -105, -115] },
    79: { moneyline: [105, 110] }, // bet365 home +105 with DraftKings away +130: an arbitrage
    4999: { moneyline: [-140, 125], spread: [-3.5, -108, -108] },
  },
});

run('live odds board in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let key: string;
  const foreignRequests: string[] = [];
  let seen = Date.now() - 60_000;
  const ingest = (spec: GameSpec) => ingestDocuments([capture(new Date((seen += 1000)).toISOString(), spec)], { db: t.db, bus: t.bus });
  const cell = (market: string, side: string) => page.locator(`#game-7101 td.best[data-market="${market}"][data-side="${side}"]`);

  beforeAll(async () => {
    t = await startTestApp();
    key = (await t.createKey('pro')).key;
    await ingest(game([-145, 120]));
    browser = await launchBrowser();
    page = await browser.newPage();
    page.setDefaultTimeout(WAIT_MS);
    const own = new URL(t.baseUrl).host;
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (!['data:', 'blob:'].includes(url.protocol) && url.host !== own) foreignRequests.push(r.url());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  test('when the page loads without a key, then it asks for one', async () => {
    await page.goto(`${t.baseUrl}/`);
    await expect(page.locator('#status').textContent()).resolves.toMatch(/Enter an API key/);
  });

  test('when a wrong key is entered, then the API refusal is shown', async () => {
    await page.fill('#api-key', 'sk_not_a_real_key');
    await page.click('#key-form button');
    await page.locator('#status.error').waitFor();
    await expect(page.locator('#status').textContent()).resolves.toMatch(/Unauthorized/);
  });

  test('when a key is entered, then today\'s games show the best real-book price per side, highlights and a chart', async () => {
    await page.fill('#api-key', key);
    await page.click('#key-form button');
    await page.locator('#game-7101').waitFor();
    await expect(cell('moneyline', 'away').locator('.price').textContent()).resolves.toBe('+130');
    await expect(cell('moneyline', 'away').locator('.book').textContent()).resolves.toContain('DraftKings');
    await expect(cell('moneyline', 'home').locator('.price').textContent()).resolves.toBe('+105');
    await expect(cell('spread', 'home').textContent()).resolves.toContain('-3.5');
    await expect(cell('total', 'over').textContent()).resolves.toContain('220.5');
    await page.locator('#highlight-list li.arb').first().waitFor();
    await expect(page.locator('#highlight-list').textContent()).resolves.toMatch(/ARB \d+\.\d\d %/);
    await expect(page.locator('#game-7101 td.best.arb').count()).resolves.toBeGreaterThan(0);
    await page.locator('#game-7101 .chart canvas').first().waitFor();
    // The key is kept for the next visit.
    await expect(page.evaluate(() => localStorage.getItem('odds.apiKey'))).resolves.toBe(key);
  });

  test('when a change is ingested after the live snapshot, then the pushed price appears on the page', async () => {
    await page.locator('#status.ok').waitFor(); // the /live-odds snapshot arrived
    await ingest(game([-190, 175]));
    await cell('moneyline', 'away').locator('.price', { hasText: '+175' }).waitFor();
    await expect(cell('moneyline', 'away').locator('.book').textContent()).resolves.toContain('FanDuel');
    await expect(page.locator('#status').textContent()).resolves.toMatch(/last change .*seq \d+/);
  });

  test('when the page is reloaded, then the stored key loads the board again, from answers the server gives now', async () => {
    // The API lets browsers keep live answers a few seconds (Cache-Control: private, max-age=5): a
    // reload right after the push above must still ask the server (revalidate), not draw the old price.
    const gamesAsked = async () => {
      const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
      return text.split('\n').filter((l) => l.startsWith('http_requests_total{') && l.includes('route="/api/v1/nba/odds/games"')).reduce((n, l) => n + Number(l.split(' ').pop()), 0);
    };
    const before = await gamesAsked();
    await page.reload();
    await page.locator('#game-7101').waitFor();
    expect(await gamesAsked()).toBe(before + 1);
    await expect(cell('moneyline', 'away').locator('.price').textContent()).resolves.toBe('+175');
  });

  test('then no request left the page\'s own host', () => {
    expect(foreignRequests).toEqual([]);
  });
});

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startFeeds, type FeedRunner } from '../../src/ingest/feed-runner';
import { createLogger } from '../../src/logger';
import { startTestApp, type TestApp } from '../support/app';
import { browserAvailable, launchBrowser } from '../support/browser';

// The board on the demo of `npm start` (the simulated feed, SIMULATOR_CLOCK=demo: games in play at any
// hour), in Chromium at 1400x900 and 390x844: live simulated games, said to be simulated, nothing cut
// off on a phone. With BOARD_SCREENSHOTS=<folder> it also saves board-desktop.png and board-phone.png
// there (docs/images/ holds the ones the README shows).

const run = browserAvailable() ? describe : describe.skip;
const WAIT_MS = 180_000;
jest.setTimeout(WAIT_MS);
const SPEED = 20; // the demo's clock runs 20x, so prices move while the page is watched

run('live odds board on the simulated demo', () => {
  let t: TestApp;
  let feeds: FeedRunner;
  let browser: Browser;
  let page: Page;
  const shots = process.env.BOARD_SCREENSHOTS;
  const overflow = () => page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth') as Promise<number>;

  beforeAll(async () => {
    const realStart = Date.now();
    const now = () => new Date(realStart + (Date.now() - realStart) * SPEED);
    t = await startTestApp({ now, env: { SIMULATOR_INTERVAL_MS: '500', SIMULATOR_CLOCK: 'demo' } });
    feeds = startFeeds({ config: t.config, db: t.db, bus: t.bus, logger: createLogger(t.config), simulate: true, now });
    const key = (await t.createKey('pro')).key;
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(WAIT_MS);
    await page.goto(`${t.baseUrl}/`);
    // Wait for the demo's live games through the API first (the backfill comes before the ticks).
    for (;;) {
      const live = await t.get('/api/v1/nba/odds/live', key);
      if (live.body.count >= 2) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    await page.fill('#api-key', key);
    await page.click('#key-form button');
  });
  afterAll(async () => {
    await browser?.close();
    await feeds?.stop();
    await t?.close();
  });

  test('when the demo key is entered, then live simulated games show with their grids and charts, said to be simulated', async () => {
    await page.locator('article.game.is-live table.grid tr[data-book]').first().waitFor();
    await page.locator('#status.ok').waitFor();
    await expect(page.locator('#notice').textContent()).resolves.toMatch(/Simulated data/);
    await expect(page.locator('article.game .sim-tag').count()).resolves.toBeGreaterThan(0);
    await page.locator('article.game.is-live .chart canvas').first().waitFor();
    await expect(overflow()).resolves.toBeLessThanOrEqual(0);
    if (shots) {
      // Let a few live pushes arrive so the charts show steps after the history.
      await page.waitForTimeout(20_000);
      mkdirSync(shots, { recursive: true });
      await page.screenshot({ path: path.join(shots, 'board-desktop.png') });
    }
  });

  test('when the window is 390 px wide, then nothing is cut off', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('article.game.is-live .chart canvas').first().waitFor();
    await expect(overflow()).resolves.toBeLessThanOrEqual(0);
    if (shots) {
      await page.locator('article.game.is-live').first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(shots, 'board-phone.png') });
    }
  });
});

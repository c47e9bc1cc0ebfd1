import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type Response, type Router } from 'express';
import { DOCS_DIR, listGuides, renderGuide } from './guides';
import { apiReferencePage, asyncApiPage, boardPage, docsHomePage, graphqlPage, guidePage, type BoardMarket } from './pages';
import { rewrittenVendorFile, vendorFilePath } from './vendor';

/** Our own scripts and styles (plain browser files, served as they are). */
const ASSETS_DIR = [path.join(__dirname, 'assets'), path.resolve(__dirname, '..', '..', 'src', 'web', 'assets')].find((d) => existsSync(d)) ?? path.join(__dirname, 'assets');
const ASSET_NAME = /^[a-z0-9-]+\.(?:js|css)$/;

/**
 * What the pages may load: this server only. Styles may be inline (GraphiQL and Scalar set them from
 * script); images and fonts may be data: URLs (the bundles embed their icons).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

export interface WebSiteOptions {
  /** Today's date in the league's calendar (YYYY-MM-DD): the board shows that day's games. */
  today(): string;
  /** The game markets the board shows, in its menu's order (the service's market table). */
  boardMarkets: readonly BoardMarket[];
  /** The guides folder (default: the repository's docs/). */
  docsDir?: string;
}

function sendPage(res: Response, html: string): void {
  res.set('Content-Security-Policy', CONTENT_SECURITY_POLICY).set('Cache-Control', 'no-cache').type('html').send(html);
}

/** The paths of the pages below, all GET (app.ts answers other methods on them with 405). */
export const WEB_PAGE_PATHS = ['/', '/favicon.ico', '/docs', '/docs/api', '/docs/graphql', '/docs/asyncapi', '/docs/guides/:name', '/assets/vendor/:file', '/assets/:file'];

/**
 * The public pages (no key needed to load them; the data they show is fetched with the user's key):
 * the live board at /, the docs at /docs (guides, REST reference, GraphQL explorer, live events), and
 * the scripts and styles they load under /assets.
 */
export function createWebSite(options: WebSiteOptions): Router {
  const docsDir = options.docsDir ?? DOCS_DIR;
  const router = express.Router();

  router.get('/', (_req, res) => sendPage(res, boardPage(options.today(), options.boardMarkets)));
  // Browsers ask for it on every page; no icon, and no 404 in their consoles.
  router.get('/favicon.ico', (_req, res) => void res.status(204).end());
  router.get('/docs', (_req, res) => sendPage(res, docsHomePage(renderGuide('README', docsDir)?.html, listGuides(docsDir))));
  router.get('/docs/api', (_req, res) => sendPage(res, apiReferencePage()));
  router.get('/docs/graphql', (_req, res) => sendPage(res, graphqlPage()));
  router.get('/docs/asyncapi', (_req, res) => sendPage(res, asyncApiPage()));
  router.get('/docs/guides/:name', (req, res, next) => {
    const guide = renderGuide(req.params.name, docsDir);
    if (!guide) return next();
    sendPage(res, guidePage(guide.title, guide.html));
  });

  router.get('/assets/vendor/:file', (req, res, next) => {
    const file = vendorFilePath(req.params.file);
    if (!file) return next();
    // Package files change only with an install: let browsers keep them for a day.
    const text = rewrittenVendorFile(req.params.file);
    if (text !== undefined) return void res.type(path.extname(file)).set('Cache-Control', 'public, max-age=86400').send(text);
    res.sendFile(file, { maxAge: '1d', dotfiles: 'deny' });
  });
  router.get('/assets/:file', (req, res, next) => {
    if (!ASSET_NAME.test(req.params.file)) return next();
    const file = path.join(ASSETS_DIR, req.params.file);
    if (!existsSync(file)) return next();
    res.sendFile(file, { headers: { 'Cache-Control': 'no-cache' } });
  });
  return router;
}

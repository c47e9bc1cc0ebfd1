// The HTML of the site's pages. Every script and style comes from this server (/assets/...): the
// pages work offline and never call another host (the Content-Security-Policy of site.ts holds them to it).

/** Text made safe for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

interface PageParts {
  title: string;
  /** Trusted HTML of the body (escape what comes from elsewhere). */
  body: string;
  styles?: string[];
  scripts?: string[];
  /** ES modules (`<script type="module">`): run once the page is parsed, after every classic script. */
  modules?: string[];
  /** `<meta name=... content=...>` pairs the page's script reads. */
  meta?: Record<string, string>;
  /** Show the docs navigation bar (every page but the full-screen tools). */
  nav?: boolean;
}

const NAV = `<nav class="site-nav"><a href="/">Live board</a><a href="/docs">Docs</a><a href="/docs/api">REST API reference</a><a href="/docs/graphql">GraphQL explorer</a><a href="/docs/asyncapi">Live events (AsyncAPI)</a></nav>`;

/** A whole HTML page. */
export function page(parts: PageParts): string {
  const meta = Object.entries(parts.meta ?? {})
    .map(([name, content]) => `<meta name="${escapeHtml(name)}" content="${escapeHtml(content)}">`)
    .join('');
  const styles = ['/assets/site.css', ...(parts.styles ?? [])].map((href) => `<link rel="stylesheet" href="${href}">`).join('');
  const scripts = [...(parts.scripts ?? []).map((src) => `<script src="${src}"></script>`), ...(parts.modules ?? []).map((src) => `<script type="module" src="${src}"></script>`)].join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${meta}<title>${escapeHtml(parts.title)}</title>${styles}</head><body>${parts.nav === false ? '' : NAV}${parts.body}${scripts}</body></html>`;
}

/** A game market as the board is told of it (app.ts hands it the rows of the service's market table). */
export interface BoardMarket {
  readonly type: string;
  readonly label: string;
  readonly sides: readonly string[];
  /** What its point is: none, a handicap per side, or one line both sides share (over/under). */
  readonly line: 'none' | 'handicap' | 'over_under';
}

/** The live odds board at /, with the markets it shows as JSON for assets/board-markets.js (`<` escaped: it sits in a script element). */
export function boardPage(today: string, markets: readonly BoardMarket[]): string {
  const marketJson = JSON.stringify(markets).replace(/</g, '\\u003c');
  return page({
    title: 'Live odds board',
    meta: { 'league-date': today },
    styles: ['/assets/vendor/uplot.css', '/assets/board.css'],
    scripts: ['/assets/vendor/socket.io.js', '/assets/vendor/uplot.js', '/assets/api-key.js'],
    // board.js imports its parts (assets/board-*.js); the Market list is written by it, from the markets given here.
    modules: ['/assets/board.js'],
    body: `<script type="application/json" id="board-markets">${marketJson}</script>
<header class="board-head"><h1>Live odds board <span class="date" id="board-date"></span></h1>
<form id="key-form" class="key-form" autocomplete="off"><label for="api-key">API key</label><input id="api-key" name="api-key" type="password" placeholder="sk_..." spellcheck="false"><button type="submit">Connect</button></form>
<p id="status" class="status" role="status">Enter an API key to load today's games. Running the demo (npm start)? It printed a ready demo key in its terminal, also kept in data/demo-key.</p></header>
<p id="notice" class="notice" role="note" hidden></p>
<form id="filters" class="filters" hidden><label>Market <select id="filter-market"></select></label>
<label>Games <select id="filter-phase"><option value="all">All</option><option value="live">Live</option><option value="pregame">Pregame</option></select></label>
<label>Min EV <input id="filter-min-ev" type="number" inputmode="decimal" step="0.5" min="0" value="0" aria-describedby="min-ev-help"></label><span id="min-ev-help" class="sr-only">per 100 staked</span>
<label>Sort <select id="filter-sort"><option value="live">Live first</option><option value="start">Start time</option><option value="ev">Best EV</option></select></label>
<details id="book-filter"><summary>Books</summary><div class="book-list"></div></details></form>
<section id="highlights" class="highlights" hidden aria-labelledby="highlights-title"><h2 id="highlights-title">Value and arbitrage</h2><ul id="highlight-list"></ul></section>
<main id="games" class="games"></main>`,
  });
}

/** The page has its own <h1>: the README's own top heading would say "Documentation" a second time. */
function withoutFirstHeading(html: string): string {
  return html.replace(/^\s*<h1[^>]*>[\s\S]*?<\/h1>\s*/, '');
}

/** /docs: the guides' table of contents (docs/README.md) under links to the three references. */
export function docsHomePage(tableOfContents: string | undefined, guides: string[]): string {
  const list = guides.map((g) => `<li><a href="/docs/guides/${g}">${escapeHtml(g)}</a></li>`).join('');
  return page({
    title: 'Odds data service: documentation',
    body: `<main class="doc"><h1>Documentation</h1>
<ul class="tools"><li><a href="/docs/api">REST API reference</a>: every route, parameter and response, from <a href="/api/v1/openapi.json">/api/v1/openapi.json</a></li>
<li><a href="/docs/graphql">GraphQL explorer</a>: run queries against /graphql with your API key</li>
<li><a href="/docs/asyncapi">Live events</a>: the Socket.IO namespace /live-odds, from <a href="/api/v1/asyncapi.json">/api/v1/asyncapi.json</a></li>
<li><a href="/">Live odds board</a>: today's games, best prices, value and line movement</li></ul>
${tableOfContents === undefined ? `<h2>Guides</h2><ul>${list}</ul>` : withoutFirstHeading(tableOfContents)}</main>`,
  });
}

/** One guide of docs/ rendered. */
export function guidePage(title: string, html: string): string {
  return page({ title, body: `<main class="doc">${html}</main>` });
}

/** The REST reference: Scalar's standalone bundle reading the served OpenAPI document. */
export function apiReferencePage(): string {
  return page({
    title: 'REST API reference',
    // Not id="api-reference": the standalone bundle mounts such an element by itself, with the default
    // (hosted) settings, beside ours; that second copy showed Ask AI, Generate MCP and Deploy.
    body: `<div id="rest-reference" data-openapi-url="/api/v1/openapi.json"></div>`,
    scripts: ['/assets/vendor/scalar-api-reference.js', '/assets/api-reference.js'],
  });
}

/** GraphiQL on /graphql, sending the key the user enters. */
export function graphqlPage(): string {
  return page({
    title: 'GraphQL explorer',
    styles: ['/assets/vendor/graphiql.css'],
    scripts: ['/assets/vendor/react.js', '/assets/vendor/react-dom.js', '/assets/vendor/graphiql.js', '/assets/api-key.js', '/assets/graphql.js'],
    body: `<form id="key-form" class="key-form bar" autocomplete="off"><label for="api-key">API key</label><input id="api-key" type="password" placeholder="sk_..." spellcheck="false"><button type="submit">Use key</button><span id="status" class="status" role="status"></span></form><div id="graphiql" class="graphiql-host"></div>`,
  });
}

/** The live events (AsyncAPI document) rendered as channels, operations and messages. */
export function asyncApiPage(): string {
  return page({
    title: 'Live events (AsyncAPI)',
    scripts: ['/assets/asyncapi.js'],
    body: `<main class="doc" id="asyncapi" data-url="/api/v1/asyncapi.json"><h1>Live events</h1><p id="status" role="status">Loading /api/v1/asyncapi.json…</p></main>`,
  });
}

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Marked, type Tokens } from 'marked';

/** A guide's name: the file name of a docs/*.md without `.md` (letters, digits, dashes). */
const GUIDE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** The docs/ folder of the repository (beside src/ and dist/). */
export const DOCS_DIR = path.resolve(__dirname, '..', '..', 'docs');

/** The guides there are, by name, in file-name order. */
export function listGuides(dir = DOCS_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md') && GUIDE_NAME.test(f.slice(0, -3)))
    .map((f) => f.slice(0, -3))
    .sort();
}

/**
 * Where a link of a guide points on the site: another guide (`live-protocol.md#events`,
 * `docs/x.md`, `../README.md`) becomes its page under /docs/guides; anything else is left alone.
 */
export function siteHref(href: string): string {
  const match = /^(?:\.\/|\.\.\/)?(?:docs\/)?([A-Za-z0-9][A-Za-z0-9_-]*)\.md(#.*)?$/.exec(href);
  if (!match) return href;
  const [, name, anchor = ''] = match;
  return name === 'README' ? `/docs${anchor}` : `/docs/guides/${name}${anchor}`;
}

/** A link into the repository that the site does not serve (`../clients/typescript/README.md`): relative, and not a guide. */
const repositoryOnly = (href: string) => !/^([a-z][a-z0-9+.-]*:|\/|#)/i.test(href);

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

const marked = new Marked({
  gfm: true,
  walkTokens(token) {
    if (token.type === 'link') (token as Tokens.Link).href = siteHref((token as Tokens.Link).href);
  },
  renderer: {
    // A guide may link a file of the repository (a README beside the code): it reads well on the
    // repository's host, but the site does not serve it, so the page names the file instead of
    // linking to a page that is not there.
    link(token) {
      if (!repositoryOnly(token.href)) return false;
      const path = token.href.replace(/^(\.\.\/)+/, '').replace(/^\.\//, '');
      return `${this.parser.parseInline(token.tokens)} (<code>${escapeHtml(path)}</code> in the repository)`;
    },
    // GFM also strikes text between single tildes, and the guides write approximations that way
    // ("~1.6x ... ~1.3x"): only a double tilde strikes (false: marked's own rendering).
    del(token) {
      return token.raw.startsWith('~~') ? false : `~${this.parser.parseInline(token.tokens)}~`;
    },
  },
});

/** A guide's Markdown as HTML (the body only), or undefined when there is no such guide. */
export function renderGuide(name: string, dir = DOCS_DIR): { title: string; html: string } | undefined {
  if (!GUIDE_NAME.test(name)) return undefined;
  const file = path.join(dir, `${name}.md`);
  if (!existsSync(file)) return undefined;
  const markdown = readFileSync(file, 'utf8');
  const title = /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim() ?? name;
  return { title, html: marked.parse(markdown, { async: false }) };
}

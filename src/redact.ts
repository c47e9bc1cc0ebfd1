// What must never leave the process: API keys, the admin key, feed keys and the passwords inside
// connection strings. One list, used by the logger (pino's redact), the request log's URL, and
// configuration errors.

/** Query parameters that carry credentials (clients put keys in URLs, though the API never asks). */
const SECRET_PARAMS = /^(api[_-]?key|apikey|key|token|access[_-]?token|secret|password|auth|authorization)$/i;

/** The value written in place of a secret. */
export const REDACTED = '[redacted]';

/**
 * `url` with its password and credential-bearing query parameters replaced by REDACTED. Accepts
 * absolute URLs and request paths (`/x?api_key=...`); text that is not a URL comes back unchanged
 * unless it could hold a secret, then REDACTED.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://relative.invalid');
  } catch {
    return /[:@=]/.test(url) ? REDACTED : url;
  }
  if (parsed.password) parsed.password = REDACTED;
  for (const name of [...parsed.searchParams.keys()]) {
    if (SECRET_PARAMS.test(name)) parsed.searchParams.set(name, REDACTED);
  }
  const relative = parsed.origin === 'http://relative.invalid' && !url.startsWith('http://relative.invalid');
  // URL encodes the brackets of REDACTED; keep the log readable.
  const text = relative ? parsed.pathname + parsed.search + parsed.hash : parsed.toString();
  return text.replaceAll(encodeURIComponent(REDACTED), REDACTED).replaceAll('%5Bredacted%5D', REDACTED);
}

/**
 * pino `redact` paths: request headers carrying keys, and any logged object's credential fields
 * (socket handshake auth, connection params, configuration).
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.apiKey',
  '*.api_key',
  '*.authorization',
  '*.Authorization',
  '*.adminKey',
  '*.password',
  '*.feedKey',
  '*.databaseUrl',
  '*.redisUrl',
  'auth.key',
  'auth.token',
  'connectionParams',
];

/** Environment variables whose values are secrets or may hold one (never echoed, even when invalid). */
export const SECRET_VARIABLES = new Set(['ADMIN_KEY', 'FEED_KEY', 'DATABASE_URL', 'REDIS_URL', 'FEED_URL', 'ODDS_API_KEY']);

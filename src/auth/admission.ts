import type { IncomingMessage } from 'node:http';
import { AppError, ERRORS } from '../errors';
import type { Auth, Authenticator } from './authenticate';
import { clientAddress } from './client-address';
import type { RateLimiter } from './rate-limit';
import type { Viewer } from './viewer';

/** What the app decided about a request before any route runs: who it is and its rate-limit verdict. */
export interface Admission {
  auth: Auth;
  /** X-RateLimit-* (and Retry-After), sent with every answer. */
  headers: Record<string, string>;
  /** Set when the request is refused (429). */
  refused?: AppError;
}

/** The HTTP admission (REST and /graphql) and the live transports' charge, on one authenticator and one rate limiter. */
export function createAdmission(deps: { authenticator: Authenticator; rateLimiter: RateLimiter }) {
  const { authenticator, rateLimiter } = deps;
  return {
    /**
     * Authentication then rate limiting, for REST and GraphQL alike. API keys draw on their plan's
     * budget, the admin key on its own, requests without a usable key on their client address's
     * (they are refused later, per route or per field, but their parsing and answers still cost).
     */
    async admit(req: IncomingMessage): Promise<Admission> {
      const auth = await authenticator.authenticate(req.headers.authorization);
      const counted =
        auth.kind === 'viewer'
          ? { bucket: auth.viewer.plan, id: auth.viewer.keyId }
          : auth.kind === 'admin'
            ? { bucket: 'admin' as const, id: 'admin' }
            : { bucket: 'anonymous' as const, id: clientAddress(req.socket.remoteAddress) };
      const decision = await rateLimiter.consume(counted.bucket, counted.id);
      // A keyless request's budget is the address's, not a key's: its figures are told only in the 429.
      if (decision.allowed) return { auth, headers: counted.bucket === 'anonymous' ? {} : decision.headers };
      const who = counted.bucket === 'admin' ? 'for the admin key' : counted.bucket === 'anonymous' ? 'without an API key from one address' : `on the ${counted.bucket} plan`;
      const refused = new AppError('RATE_LIMITED', `${ERRORS.RATE_LIMITED.message}: ${decision.headers['X-RateLimit-Limit']} requests per minute ${who}, retry in ${decision.headers['Retry-After']} s`);
      return { auth, headers: decision.headers, refused };
    },
    /** The plan's request budget for a live operation (the HTTP one, so a key's budget is the same whichever way it is spent). */
    async charge(viewer: Viewer): Promise<{ headers: Record<string, string>; refused?: AppError }> {
      const decision = await rateLimiter.consume(viewer.plan, viewer.keyId);
      if (decision.allowed) return { headers: decision.headers };
      const message = `${ERRORS.RATE_LIMITED.message}: ${decision.headers['X-RateLimit-Limit']} requests per minute on the ${viewer.plan} plan, retry in ${decision.headers['Retry-After']} s`;
      return { headers: decision.headers, refused: new AppError('RATE_LIMITED', message) };
    },
  };
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { ApolloServer } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { GraphQLError, Kind, NoSchemaIntrospectionCustomRule, type GraphQLSchema } from 'graphql';
import type { IncomingMessage } from 'node:http';
import type { Admission } from '../auth/admission';
import type { Auth } from '../auth/authenticate';
import { AppError, ERRORS, isDatabaseUnavailable } from '../errors';
import { costRefusal, type GraphQLContext, PARSE_OPTIONS, shapeLimitRules } from '../graphql';
import type { Logger } from '../logger';
import type { CacheEvent } from '../rest/bounded-cache';
import { createDocumentStore, createGraphQLGetHandler, createPersistedQueryStore } from '../rest/graphql-get';
import type { ResponseCache } from '../rest/response-cache';
import { handleErrors, sendGraphQL } from './errors';
import { internalError, requestIds } from './request-id';

/** Whether the /graphql request being served has a usable key (the persisted-query store asks). */
const keyedRequests = new AsyncLocalStorage<boolean>();

type AuthedRequest = Request & { auth?: Auth };

export interface GraphQLHttpDeps {
  schema: GraphQLSchema;
  admit(req: IncomingMessage): Promise<Admission>;
  createContext(auth: Auth): GraphQLContext;
  /** The REST response cache GraphQL over GET answers from; absent: GETs go to Apollo. */
  cache: ResponseCache | undefined;
  dataVersion(): number;
  /** GRAPHQL_INTROSPECTION. */
  introspection: boolean;
  /** DEBUG_ERRORS: stack traces in error answers. */
  debugErrors: boolean;
  /** Bytes the persisted queries hold at most; as much for the parsed documents of GET, and of Apollo. */
  persistedQueryMaxBytes: number;
  onPersistedQueryEvent(event: CacheEvent): void;
  onDocumentEvent(event: CacheEvent): void;
  logger: Logger;
}

/** GraphQL over HTTP on `app` at /graphql: Apollo, persisted queries, GETs from the response cache. */
export function mountGraphQL(app: Express, deps: GraphQLHttpDeps): { close(): Promise<void> } {
  const { schema, logger } = deps;
  // GraphQL over HTTP: bad credentials are not refused here but per field (admin fields need another key).
  const authenticateRequest = async (req: AuthedRequest, res: Response, next: NextFunction) => {
    try {
      const admission = await deps.admit(req);
      req.auth = admission.auth;
      res.set(admission.headers);
      if (admission.refused) {
        sendGraphQL(res, admission.refused);
        return;
      }
      keyedRequests.run(admission.auth.kind !== 'none', next);
    } catch (error) {
      next(error);
    }
  };
  const authOf = (req: Request): Auth => (req as AuthedRequest).auth ?? { kind: 'none', error: new AppError('UNAUTHENTICATED') };

  // Automatic persisted queries: one store for Apollo (POST registration) and the cached GET path.
  // Bounded in bytes; only requests with a usable key register queries (a keyless one's is run, not kept).
  const persistedQueries = createPersistedQueryStore({
    maxBytes: deps.persistedQueryMaxBytes,
    mayStore: () => keyedRequests.getStore() === true,
    onEvent: deps.onPersistedQueryEvent,
  });
  // Introspection is a setting (GRAPHQL_INTROSPECTION, on by default), never NODE_ENV's: Apollo would
  // turn it off under NODE_ENV=production and break GraphiQL, codegen and client tools there. Off, it
  // is refused on POST (Apollo's own rule) and on the cached GET path (the same rule of graphql-js).
  const introspectionRules = deps.introspection ? [] : [NoSchemaIntrospectionCustomRule];
  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    introspection: deps.introspection,
    persistedQueries: { cache: persistedQueries },
    // Parsed documents bounded in bytes with their source text counted (createDocumentStore says why).
    documentStore: createDocumentStore({ maxBytes: deps.persistedQueryMaxBytes, onEvent: deps.onDocumentEvent }),
    // A GET carrying Authorization was preflighted (a browser cannot send that header cross-site
    // without asking), so it is no CSRF risk: a keyed GET is answered, plan refusals included
    // (FORBIDDEN), instead of Apollo's CSRF BAD_REQUEST. Apollo's own two headers still count.
    csrfPrevention: { requestHeaders: ['authorization', 'x-apollo-operation-name', 'apollo-require-preflight'] },
    validationRules: shapeLimitRules(),
    parseOptions: PARSE_OPTIONS,
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      // The cost budget depends on the caller's plan and the operation's variables (list limits).
      {
        async requestDidStart() {
          return {
            async didResolveOperation({ document, operation, operationName, request, contextValue }) {
              if (operation?.operation === 'subscription') {
                throw new GraphQLError('subscriptions run over WebSocket: connect with graphql-ws to /graphql (or Socket.IO to /live-odds)', {
                  extensions: { code: ERRORS.MALFORMED_REQUEST.graphql, http: { status: 400 } },
                });
              }
              const refusal = costRefusal(schema, document, { operationName, variables: request.variables, plan: contextValue.viewer?.plan });
              if (refusal) throw refusal;
              // An audit line per admin operation: what was done, never the key that did it.
              if (contextValue.auth.kind === 'admin' && operation) {
                const fields = operation.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : []));
                logger.info({ admin: true, operation: operation.operation, fields }, 'admin action');
              }
            },
          };
        },
      },
    ],
    // AppErrors carry their catalogue code; anything else is hidden behind INTERNAL_SERVER_ERROR.
    formatError(formatted, error) {
      const original = unwrapResolverError(error);
      if (original instanceof AppError) {
        return { ...formatted, message: original.message, extensions: { ...formatted.extensions, code: ERRORS[original.code].graphql } };
      }
      // Apollo relabels every validation error; keep the depth/cost rule's own code.
      const cause = error instanceof GraphQLError ? error.originalError : undefined;
      if (cause instanceof GraphQLError && cause.extensions.code === ERRORS.QUERY_TOO_COMPLEX.graphql) {
        return { ...formatted, extensions: { ...formatted.extensions, code: ERRORS.QUERY_TOO_COMPLEX.graphql } };
      }
      if (formatted.extensions?.code === 'INTERNAL_SERVER_ERROR' && isDatabaseUnavailable(original)) {
        return { message: ERRORS.UNAVAILABLE.message, locations: formatted.locations, path: formatted.path, extensions: { code: ERRORS.UNAVAILABLE.graphql } };
      }
      if (formatted.extensions?.code === 'INTERNAL_SERVER_ERROR') {
        const requestId = requestIds.getStore() ?? randomUUID();
        logger.error({ err: original, reqId: requestId }, 'GraphQL resolver failed');
        return { message: internalError(requestId).message, locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR', requestId } };
      }
      // Validation and input errors keep their message and code; their stack stays here.
      const { stacktrace: _stacktrace, ...extensions } = formatted.extensions ?? {};
      return { ...formatted, extensions };
    },
    logger,
    includeStacktraceInErrorResponses: deps.debugErrors,
  });

  apollo.startInBackgroundHandlingStartupErrorsByLoggingAndFailingAllRequests();
  // GraphQL queries over GET (plain or persisted) come from the REST response cache, with ETags.
  const graphqlGet =
    deps.cache &&
    createGraphQLGetHandler({
      schema,
      rules: [...shapeLimitRules(), ...introspectionRules],
      cache: deps.cache,
      persistedQueries,
      documentMaxBytes: deps.persistedQueryMaxBytes,
      onDocumentEvent: deps.onDocumentEvent,
      dataVersion: deps.dataVersion,
      createContext: deps.createContext,
    });
  const graphqlGetFromCache = async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' || !graphqlGet) return next();
    try {
      if (!(await graphqlGet(req, res, req.query as Record<string, unknown>, authOf(req)))) next();
    } catch (error) {
      next(error);
    }
  };
  app.use(
    '/graphql',
    express.json({ limit: '100kb' }),
    authenticateRequest,
    graphqlGetFromCache,
    expressMiddleware(apollo, { context: async ({ req }) => deps.createContext(authOf(req)) }),
    // Bad JSON and bodies over the limit answer in GraphQL's shape on /graphql.
    handleErrors(logger, sendGraphQL),
  );
  return { close: () => apollo.stop() };
}

import { hash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { costRefusal, PARSE_OPTIONS, type GraphQLContext, selectsPerKeyField } from '../graphql';
import { execute, getOperationAST, parse, specifiedRules, validate, type DocumentNode, type GraphQLSchema, type ValidationRule } from 'graphql';
import type { Auth } from '../auth/authenticate';
import { planVisibility } from '../auth/viewer';
import { BoundedCache, stringBytes, type CacheEvent } from './bounded-cache';
import { representation, type ResponseCache } from './response-cache';
import { sendRepresentation } from './router';

// GraphQL reads over GET (`/graphql?query=...` and automatic persisted queries,
// `?extensions={"persistedQuery":{"version":1,"sha256Hash":"..."}}`) answered from the same response
// cache as the REST routes, with the same ETag/304 and compression. Only successful query results
// are answered here; anything else (a mutation, an unknown hash, a validation or execution error)
// is passed on to Apollo, which answers it in GraphQL's own way.

/** The store of persisted queries, shared with Apollo (its `persistedQueries.cache`). */
export interface PersistedQueryStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<boolean>;
}

/** Apollo's prefix of APQ entries in its cache. */
const APQ_PREFIX = 'apq:';

export interface PersistedQueryStoreOptions {
  /** Bytes the stored queries may hold, hashes included (PERSISTED_QUERIES_MAX_BYTES). */
  maxBytes: number;
  /**
   * Whether the request being served may register a query: only requests with a usable key do, so
   * a caller without one cannot fill the store (the app answers from the request's context).
   */
  mayStore(): boolean;
  onEvent?: (event: CacheEvent) => void;
}

/** An in-memory APQ store bounded in bytes, least recently used out first. */
export function createPersistedQueryStore(options: PersistedQueryStoreOptions): PersistedQueryStore {
  const queries = new BoundedCache<string>({ maxBytes: options.maxBytes, sizeOf: stringBytes, ...(options.onEvent && { onEvent: options.onEvent }) });
  return {
    async get(key) {
      return queries.get(key);
    },
    async set(key, value) {
      if (options.mayStore()) queries.set(key, value);
    },
    async delete(key) {
      return queries.delete(key);
    },
  };
}

/** Apollo's store of parsed and validated documents (its `documentStore`). */
export interface DocumentStore {
  get(key: string): Promise<DocumentNode | undefined>;
  set(key: string, value: DocumentNode): Promise<void>;
  delete(key: string): Promise<boolean>;
}

/**
 * Apollo's document store, bounded in bytes. Apollo's own (an LRU of 30 MiB) sizes a document by its
 * JSON form, in which the location of each node is two numbers: the source text the locations point
 * into is not counted, so any caller, keyless included, could keep ~100 kB of comments per document
 * in memory at ~200 counted bytes (issue 39: 300 documents of 98 kB grew the heap by 29 MB). Here a
 * document counts its source and twice its JSON form (what the tree takes, as for GET documents).
 */
export function createDocumentStore(options: { maxBytes: number; onEvent?: (event: CacheEvent) => void }): DocumentStore {
  const documents = new BoundedCache<DocumentNode>({
    maxBytes: options.maxBytes,
    sizeOf: (document) => stringBytes(document.loc?.source.body ?? '') + 2 * JSON.stringify(document).length,
    ...(options.onEvent && { onEvent: options.onEvent }),
  });
  return {
    async get(key) {
      return documents.get(key);
    },
    async set(key, value) {
      documents.set(key, value);
    },
    async delete(key) {
      return documents.delete(key);
    },
  };
}

export interface GraphQLGetDeps {
  schema: GraphQLSchema;
  /** Extra validation rules (the depth/cost limit). */
  rules: readonly ValidationRule[];
  cache: ResponseCache;
  persistedQueries: PersistedQueryStore;
  /** Bytes the parsed and validated documents may hold (default 4 MiB). */
  documentMaxBytes?: number;
  onDocumentEvent?: (event: CacheEvent) => void;
  dataVersion(): number;
  createContext(auth: Auth): GraphQLContext;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * Tries to answer a GET /graphql request from the cache (or by running and caching it). Resolves
 * true when it answered, false to let Apollo handle the request.
 */
export function createGraphQLGetHandler(deps: GraphQLGetDeps) {
  const rules = [...specifiedRules, ...deps.rules];
  // Parsed and validated documents by hash; `false` remembers one that does not validate. Parsed
  // without locations (only documents that validate and run without errors are used here, so no
  // error needs one), which keeps the source text out of the tree: a document is about twice its
  // JSON form in memory.
  const documents = new BoundedCache<{ document: DocumentNode | false; bytes: number }>({
    maxBytes: deps.documentMaxBytes ?? 4 * 1024 * 1024,
    sizeOf: (entry) => entry.bytes,
    ...(deps.onDocumentEvent && { onEvent: deps.onDocumentEvent }),
  });

  return async (req: IncomingMessage, res: ServerResponse, query: Record<string, unknown>, auth: Auth): Promise<boolean> => {
    let source = text(query.query);
    let persistedHash: string | undefined;
    if (text(query.extensions)) {
      try {
        persistedHash = text(JSON.parse(text(query.extensions)!)?.persistedQuery?.sha256Hash);
      } catch {
        return false;
      }
    }
    if (source === undefined && persistedHash) source = await deps.persistedQueries.get(APQ_PREFIX + persistedHash);
    if (source === undefined) return false;
    const documentHash = hash('sha256', source, 'hex');
    if (persistedHash && persistedHash !== documentHash) return false;
    let variables: Record<string, unknown> = {};
    if (text(query.variables)) {
      try {
        variables = JSON.parse(text(query.variables)!) ?? {};
      } catch {
        return false;
      }
    }
    const operationName = text(query.operationName);

    let document = documents.get(documentHash)?.document;
    if (document === undefined) {
      try {
        const parsed = parse(source, { ...PARSE_OPTIONS, noLocation: true });
        document = validate(deps.schema, parsed, rules).length ? false : parsed;
      } catch {
        document = false;
      }
      documents.set(documentHash, { document, bytes: document ? 2 * JSON.stringify(document).length : 0 });
    }
    if (!document || getOperationAST(document, operationName)?.operation !== 'query') return false;
    // Answers that depend on the key itself (its webhooks) are never shared: Apollo answers them.
    if (selectsPerKeyField(deps.schema, document, operationName)) return false;
    // Over the plan's cost budget: Apollo answers it, with the refusal.
    if (costRefusal(deps.schema, document, { operationName, variables, plan: auth.kind === 'viewer' ? auth.viewer.plan : null })) return false;

    const visibility = auth.kind === 'viewer' ? planVisibility(auth.viewer.plan) : auth.kind;
    const key = `${deps.dataVersion()}|graphql|${documentHash}|${operationName ?? ''}|${visibility}|${JSON.stringify(variables)}`;
    let r = deps.cache.get(key);
    if (!r) {
      const result = await execute({ schema: deps.schema, document, variableValues: variables, operationName, contextValue: deps.createContext(auth) });
      if (result.errors?.length) return false;
      r = representation(Buffer.from(`${JSON.stringify({ data: result.data })}\n`), 'private, max-age=5');
      deps.cache.set(key, r);
    }
    // A persisted query seen here first is registered for Apollo too (and for later hash-only GETs),
    // when the caller has a key (the store's own rule, the same for POST registrations).
    if (persistedHash && query.query !== undefined) await deps.persistedQueries.set(APQ_PREFIX + persistedHash, source);
    await sendRepresentation(req, res, r, {});
    return true;
  };
}

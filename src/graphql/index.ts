// The one entry point of graphql/ for the rest of the service (REST, the live core, app.ts): the
// executable schema and its per-request context, the operation documents REST and the pushes run,
// the vocabulary REST validates with, and the limits and JSON Schemas every transport applies.
// Everything else in this folder (resolvers, loaders, mappers) is GraphQL's own business.
export * from './schema';
export * from './context';
export * from './operations';
export * from './enums';
export * from './json-schema';
export * from './limits';

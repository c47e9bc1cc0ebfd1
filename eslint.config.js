// Lint enforces the import rules of HOUSE-STYLE.md: which folder of src/ may import which, and no
// import cycles. Type-aware checks are left to `tsc` (npm run typecheck).
const tseslint = require('typescript-eslint');
const importX = require('eslint-plugin-import-x');

const except = (...paths) => paths.map((p) => `./${p}`);

module.exports = tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'src/**/__generated__/**', 'coverage/**'] },
  {
    files: ['src/**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.js'] })] },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: __dirname,
          zones: [
            { target: './src/domain', from: './src', except: except('domain'), message: 'domain is pure: it imports nothing of ours' },
            { target: './src/db', from: './src', except: except('db', 'domain', 'api-keys.ts', 'redact.ts'), message: 'db imports domain at most (and api-keys.ts for the key format, redact.ts for the database URL its errors name)' },
            { target: './src/auth', from: './src', except: except('auth', 'domain', 'api-keys.ts', 'errors.ts'), message: 'auth imports domain at most (the key lookup is passed in)' },
            { target: './src/events', from: './src', except: except('events', 'domain'), message: 'events (the bus, the live feed) import domain at most' },
            { target: './src/services', from: './src', except: except('services', 'db', 'domain', 'events', 'errors.ts'), message: 'services (the business operations) import db, domain and events' },
            { target: './src/graphql', from: './src', except: except('graphql', 'services', 'db', 'domain', 'auth', 'events', 'errors.ts', 'config.ts'), message: 'graphql imports services, db, domain, auth and events' },
            { target: './src/rest', from: './src', except: except('rest', 'graphql', 'auth', 'events', 'errors.ts'), message: 'rest goes through the GraphQL schema: never db or domain' },
            { target: './src/mcp', from: './src', except: except('mcp', 'rest', 'graphql', 'auth', 'domain', 'errors.ts'), message: 'mcp runs the REST routes (rest, graphql\'s entry, auth) and, for the math tools only, domain\'s pure math' },
            { target: './src/live', from: './src', except: except('live', 'graphql', 'services', 'auth', 'events', 'errors.ts'), message: 'live goes through the GraphQL schema and the services: never db or domain' },
            { target: './src/live/*.ts', from: './src/live/use', message: 'the live core never imports a protocol adapter' },
            // An adapter of one file imports nothing of use/; an adapter folder only its own files.
            { target: './src/live/use/*.ts', from: './src/live/use', message: 'a protocol adapter imports the live core, never another adapter' },
            { target: './src/live/use/socket-io', from: './src/live/use', except: except('socket-io'), message: 'a protocol adapter imports the live core, never another adapter' },
            { target: './src/ingest', from: './src', except: except('ingest', 'domain', 'db', 'events', 'config.ts', 'logger.ts', 'redact.ts'), message: 'ingest imports domain, db and events' },
            { target: './src/webhooks', from: './src', except: except('webhooks', 'services', 'domain', 'db', 'events', 'config.ts', 'logger.ts'), message: 'webhooks (the ingesting process\'s sender) import services (the webhook rules), domain (the listings too), db and events' },
            { target: './src/http', from: './src', except: except('http', 'rest', 'graphql', 'live', 'auth', 'db', 'events', 'web', 'errors.ts', 'config.ts', 'logger.ts', 'metrics.ts', 'redact.ts'), message: 'http (the server, Express, GraphQL over HTTP, the live transports attached) assembles rest, graphql, live, auth and web; db only for readiness' },
            { target: './src/web', from: './src', except: except('web'), message: 'web (pages and their assets) imports nothing of ours: app.ts hands it what it shows' },
            { target: './src', from: './test', message: 'src never imports test' },
          ],
        },
      ],
    },
  },
);

// Jest's setupFiles of the `production` project (jest.config.js): the test runs as the service runs
// in its container (Dockerfile: NODE_ENV=production). Set before the test file loads any module, so
// libraries that read NODE_ENV at import (graphql-js) or construction (Apollo) see it.
process.env.NODE_ENV = 'production';

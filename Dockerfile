# syntax=docker/dockerfile:1
# The odds service: `odds serve` on port 3000 (see docs/operations.md).
# Build stage: every dependency, Prisma client generated and src/ compiled to dist/ (npm ci's
# postinstall does both). Runtime stage: the built tree with production dependencies only, non-root.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund \
  && test -f dist/cli/index.js \
  && rm -rf node_modules

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app /app
# A built tree (dist/ present): postinstall keeps it, no build tools needed (scripts/postinstall.js).
RUN npm ci --omit=dev --no-audit --no-fund \
  && npm cache clean --force \
  && mkdir -p /data \
  && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "bin/odds.js"]
CMD ["serve"]

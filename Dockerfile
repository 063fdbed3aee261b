# The control plane image: one image, three roles (docs/architecture.md, the two halves). The app runs TypeScript directly with
# Node 24's type stripping, so there is no build step: install the production dependencies, copy the
# source, run as the unprivileged `node` user.
#   all-in-one (default CMD): node bin/start.ts                  (= npm start; PGlite under /data unless DATABASE_URL)
#   split sidecar:            node bin/start.ts --sidecar-only   (= npm run start:sidecar; applies migrations)
#   split functions:          node bin/functions.ts              (= npm run start:functions)
#   migrations only:          node bin/migrate.ts                (= npm run migrate)
# The commands run node directly, not through npm: npm runs scripts via `sh -c` and on SIGTERM exits at
# once without passing the signal on to node, which would skip the drain (tests/e2e/helpers.ts).
# The web UI (docs/web-ui.md) is built in a stage of its own, with the dev dependencies Vite needs, and
# only its output is copied into the image.
FROM node:24-slim AS web
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN node scripts/build-web.ts

FROM node:24-slim

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data

WORKDIR /app

COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

COPY . .
COPY --from=web /app/web/dist ./web/dist
RUN mkdir -p /data && chown node:node /data && chmod 0700 /data
# The app user writes its caches here (docs/adr/0508): the migrated database template a fresh /data is
# made from, and Node's compile cache. Without it a fresh /data runs initdb and every migration, and
# every start compiles every module.
RUN mkdir -p node_modules/.cache && chown node:node node_modules/.cache

USER node
EXPOSE 8080
VOLUME ["/data"]

# node:24-slim has no curl or wget; Node's fetch does the probe.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/api/v1/readyz').then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))"]

# Draining waits up to DRAIN_TIMEOUT_S (25 s): give `docker stop` at least 30 s (--stop-timeout / stop_grace_period).
STOPSIGNAL SIGTERM
CMD ["node", "bin/start.ts"]

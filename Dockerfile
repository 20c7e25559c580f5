# finder production image: Bun runtime, non-root user, configuration from the environment.
# The dependencies come from the lockfile with `npm ci` (the same install as `npm ci && npm start`),
# in a Node stage since the Bun image has no npm; the runtime stage only copies them.
# test/lib/dockerfile.test.ts lints these instructions and test/process/dockerfile-steps.test.ts
# runs the same install and start steps outside a container (docs/operations.md, "Container").

FROM node:22-bookworm-slim AS install
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only, exactly as locked. Their packages have no install scripts; the
# project's own postinstall (the embedded database template) runs below, where Bun is.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM oven/bun:1.4.5-slim
WORKDIR /app
COPY --from=install /app/node_modules ./node_modules
COPY . .
# The embedded database template, for a container started without DATABASE_URL (trying it out);
# production runs on a Postgres server and never reads it.
RUN bun scripts/build-pglite-template.ts
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/app/.data
RUN mkdir -p /app/.data && chown -R bun:bun /app/.data
USER bun
EXPOSE 3000
# Liveness: GET /api/health answers without touching the database. The slim image has no curl,
# so Bun itself asks.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["bun", "-e", "const r = await fetch(`http://127.0.0.1:${process.env.PORT}/api/health`).catch(() => null); process.exit(r?.ok ? 0 : 1)"]
# DATA_MODE, DATABASE_URL, AUTH_SECRET and TRUSTED_PROXIES must be provided at run time.
CMD ["bun", "src/index.ts"]

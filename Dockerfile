# finder production image: Bun runtime, non-root user, configuration from the environment.
FROM oven/bun:1.4.5-slim
WORKDIR /app
COPY package.json package-lock.json bun.lock* ./
RUN bun install --production --frozen-lockfile || bun install --production
COPY . .
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/app/.data
RUN mkdir -p /app/.data && chown -R bun:bun /app/.data
USER bun
EXPOSE 3000
# DATA_MODE, DATABASE_URL and AUTH_SECRET must be provided at run time.
CMD ["bun", "src/index.ts"]

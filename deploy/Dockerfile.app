# syntax=docker/dockerfile:1
# The gpufleet app (Next.js + collector). Build from the repository root:
#   docker build -f deploy/Dockerfile.app -t gpufleet/app .
# Runs the migrations for DATABASE_URL (SQLite file or PostgreSQL), then serves on :3000.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary fits; the repo's .npmrc points
# node-gyp at Debian's Node headers (/usr), the official image keeps them under /usr/local.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local NEXT_TELEMETRY_DISABLED=1 CHECKPOINT_DISABLE=1
COPY . .
# postinstall generates both Prisma clients (SQLite and PostgreSQL)
RUN npm ci --no-audit --no-fund && npx next build

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 CHECKPOINT_DISABLE=1 PORT=3000 \
  DATABASE_URL=file:./data/gpufleet.db GPUFLEET_DEMO=0
COPY --from=build --chown=node:node /app ./
RUN mkdir -p data && chown node:node data
USER node
VOLUME ["/app/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["sh", "-c", "node --import tsx scripts/migrate.ts && node --conditions=react-server --import tsx scripts/first-run.ts --url=\"${GPUFLEET_PUBLIC_URL:-http://127.0.0.1:$PORT}\" && exec node --import tsx scripts/serve.ts -H 0.0.0.0 -p \"$PORT\""]

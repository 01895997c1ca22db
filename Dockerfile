# syntax=docker/dockerfile:1
# One image for every process; the container's command picks the service. Processes run the bundles of
# `npm run build` with plain node (no tsx, no TypeScript at runtime).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages ./packages
COPY services ./services
COPY scripts ./scripts
COPY tsconfig.base.json tsconfig.json ./
RUN npm ci --no-audit --no-fund && npm run build \
 && mkdir /out && for d in dist services/*/dist; do mkdir -p "/out/$d" && cp -r "$d/." "/out/$d"; done

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages ./packages
COPY services ./services
RUN npm ci --omit=dev --no-audit --no-fund \
 && find packages services -path '*/test' -prune -exec rm -rf {} + \
 && rm -rf packages/test-support node_modules/@crew/test-support

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app ./
COPY --from=build /out ./
USER node
# api | worker | auth | supplier-sandbox ; `node dist/migrate.js` runs migrations alone (k8s Job).
ENV SERVICE=api
CMD ["sh", "-c", "exec node --enable-source-maps services/${SERVICE}/dist/main.js"]

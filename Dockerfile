# One image for every process; the container's command picks the service.
# syntax=docker/dockerfile:1
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages ./packages
COPY services ./services
RUN npm ci --omit=dev --no-audit --no-fund \
 && find packages services -path '*/test' -prune -exec rm -rf {} +

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app ./
COPY scripts ./scripts
COPY tsconfig.base.json tsconfig.json ./
USER node
# api | worker | auth | supplier-sandbox ; `scripts/migrate.ts` runs migrations alone (k8s Job).
ENV SERVICE=api
CMD ["sh", "-c", "exec node --import tsx services/${SERVICE}/src/main.ts"]

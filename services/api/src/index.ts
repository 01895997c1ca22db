export { createApiApp, apiRoutes } from './app';
export { API_BASE, OPS_BASE, type ApiDeps } from './deps';
export { createTokenVerifier, type Principal, type TokenVerifier } from './auth/token-verifier';
export { httpMetrics } from './operability/http-metrics';
export { RosterIntake } from './schedules/roster-intake';
export type { PasswordHashCost } from './console/secrets';
export { coverageReport } from './roster-coverage/coverage.routes';
export { invoiceIssues, postInvoice } from './invoices/invoices.service';

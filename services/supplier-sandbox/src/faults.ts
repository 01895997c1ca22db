/** Armed faults of the control API (DESIGN section 5): each matching supplier call consumes one. */
import { randomUUID } from 'node:crypto';
import type { ValidationIssue } from '@crew/contracts';
import { ApiError } from '@crew/platform';
import type { Fault, FaultBody, FaultOperation } from './schemas';

/** Which operations each outcome makes sense for; anything else is refused with 422. */
const ALLOWED: Record<FaultBody['outcome'], readonly FaultOperation[] | 'all'> = {
  error: 'all',
  reject: 'all',
  timeout: 'all',
  offer_expired: ['flight.book'],
  price_change: ['hotel.book', 'flight.book'],
  rate_limited: 'all',
  hold: 'all',
};

export class FaultStore {
  private faults: Fault[] = [];

  constructor(private readonly now: () => string) {}

  arm(body: FaultBody): Fault {
    const issues: ValidationIssue[] = [];
    const allowed = ALLOWED[body.outcome];
    if (allowed !== 'all' && !allowed.includes(body.operation)) {
      issues.push({ field: '/outcome', issue: `${body.outcome} applies only to ${allowed.join(', ')}` });
    }
    if (body.outcome === 'price_change') {
      if (body.price_delta === undefined)
        issues.push({ field: '/price_delta', issue: 'is required with price_change' });
      else if (body.price_delta === 0) issues.push({ field: '/price_delta', issue: 'must not be 0' });
    } else if (body.price_delta !== undefined) {
      issues.push({ field: '/price_delta', issue: 'applies only to price_change' });
    }
    if (body.currency !== undefined && body.outcome !== 'price_change')
      issues.push({ field: '/currency', issue: 'applies only to price_change' });
    if (body.retry_after_s !== undefined && body.outcome !== 'rate_limited')
      issues.push({ field: '/retry_after_s', issue: 'applies only to rate_limited' });
    if (issues.length > 0) throw ApiError.validation(issues, 'This operation and outcome do not combine');
    const count = body.count ?? 1;
    const fault: Fault = {
      fault_id: randomUUID(),
      operation: body.operation,
      outcome: body.outcome,
      count,
      remaining: count,
      price_delta: body.price_delta ?? null,
      ...(body.currency ? { currency: body.currency } : {}),
      ...(body.outcome === 'rate_limited' ? { retry_after_s: body.retry_after_s ?? 1 } : {}),
      created_at: this.now(),
    };
    this.faults.push(fault);
    return { ...fault };
  }

  /** Consumes one use of the oldest fault armed for `operation` (first armed, first used). */
  take(operation: FaultOperation): Fault | undefined {
    const index = this.faults.findIndex((f) => f.operation === operation);
    const fault = this.faults[index];
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining === 0) this.faults.splice(index, 1);
    return { ...fault };
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  clear(): void {
    this.faults = [];
  }
}

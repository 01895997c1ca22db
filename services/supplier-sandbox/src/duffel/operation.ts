import type { NextFunction, Request, Response } from 'express';
import type { DuffelFault, DuffelOperation } from './sim-faults';

/*
 * One operation of the Duffel dialect: its handler, and the wrapper (bearer token, armed faults, call counts,
 * Duffel's error envelope) that ./routes mounts every handler with, Air's and Stays' (./stays-routes) alike.
 */

/** One operation's answer; `fault` is the fault armed for this call, for outcomes the operation itself plays (no_availability). */
export type Handler = (req: Request, token: string, fault?: DuffelFault) => { status: number; body: unknown };
export type DuffelOp = (
  operation: DuffelOperation,
  handler: Handler,
) => (req: Request, res: Response, next: NextFunction) => Promise<void>;

/** Errors of the Duffel-dialect simulation, shaped as Duffel answers them. */

/** A Duffel error answer: status, code and type as Duffel names them. */
export class DuffelSimError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly code: string,
    readonly title: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = () =>
  new DuffelSimError(
    404,
    'invalid_request_error',
    'not_found',
    'Not found',
    'The resource you are trying to access does not exist',
  );

export const validation = (field: string, message: string) =>
  new DuffelSimError(422, 'validation_error', 'validation_required', `Invalid ${field}`, message);

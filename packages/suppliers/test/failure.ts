import { isSupplierError, type SupplierError } from '../src/index';

/** The SupplierError a call rejects with (fails the test if it resolves, or rejects with something else). */
export async function failure(promise: Promise<unknown>): Promise<SupplierError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isSupplierError(err)) throw new Error(`expected a SupplierError, got ${String(err)}`);
  return err;
}

import {
  REQUEST_OPERATIONS,
  type RequestOperation,
  type RequestOperations,
} from '../generated/operations';

/**
 * The `Api` methods of every request/response operation, each calling `call` with its
 * entry of the generated table and its request (`undefined` for those that take none). One
 * place maps table to methods, so an operation added to heddle-api's table reaches both
 * doors by regenerating the bindings.
 */
export function requestOperations(
  call: (operation: RequestOperation, req: unknown) => Promise<unknown>,
): RequestOperations {
  const methods: Record<string, (req?: unknown) => Promise<unknown>> = {};
  for (const operation of REQUEST_OPERATIONS) {
    methods[operation.member] = (req?: unknown) => call(operation, req);
  }
  // Each member was set from the table the interface was generated from.
  return methods as unknown as RequestOperations;
}

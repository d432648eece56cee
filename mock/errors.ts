/** Errors are values with a status and the document's error body; `renderError` is the one renderer. */
import { api } from '../spec/api.ts';
import type { ErrorStatus } from '../spec/model.ts';
import type { ErrorBody } from '../generated/types.ts';

export class HttpError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message?: string,
    readonly data?: unknown,
  ) {
    super(message ?? meaningOf(status));
  }
}

/** §Errors: the message meaning of each status, used as the default message. */
function meaningOf(status: ErrorStatus): string {
  return api.errorMeanings.find((m) => m.status === status)?.meaning ?? 'Error';
}

export const unauthorized = () => new HttpError(401, 'No or invalid API key provided');
export const notFound = (what?: string, more?: object) =>
  new HttpError(404, 'Could not find data or the user does not have permissions to retrieve it', what ? { resource: what, ...more } : undefined);
/**
 * 404 for a path or method the document does not list: the same body as an unknown id, with
 * `data` (its content is not shown: UNK-ERROR-DATA) naming the nearest endpoints as the document
 * writes them, and the methods the path takes when only the method was wrong.
 */
export function unknownEndpoint(method: string, miss: { allowed: readonly string[]; closest: readonly string[] }, basePath?: string): HttpError {
  const named = miss.closest.length > 1 ? `${miss.closest.slice(0, -1).join(', ')} or ${miss.closest.at(-1)}` : miss.closest[0];
  const hint = [
    miss.allowed.length ? `this path takes ${miss.allowed.join(', ')}, not ${method}` : undefined,
    basePath ? `paths begin with ${basePath}` : undefined,
    named ? `did you mean ${named}?` : undefined,
  ].filter(Boolean).join('; ');
  return notFound('endpoint', { hint, closest: miss.closest, ...(miss.allowed.length ? { allowed: miss.allowed } : {}) });
}

export const badRequest = (reason: string, data?: unknown) => new HttpError(400, `Bad request format: ${reason}`, data);

/** §Resources and fields > Error body: `message`, `status` equal to the HTTP status, `data` optional. */
export function renderError(error: HttpError): ErrorBody {
  return error.data === undefined
    ? { message: error.message, status: error.status }
    : { message: error.message, status: error.status, data: error.data };
}

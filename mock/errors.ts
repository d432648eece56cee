/** Errors are values with a status and the document's error body; `renderError` is the one renderer. */
import { api } from '../spec/api.ts';
import type { ErrorStatus } from '../spec/model.ts';
import type { ErrorBody } from '../generated/types.ts';

/**
 * An answer the document's error table gives, thrown where it is decided. It is how the mock
 * answers most requests a suite sends, not a fault: no stack is captured (that took a tenth of
 * the mock's time per refused request).
 */
export class HttpError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message?: string,
    readonly data?: unknown,
  ) {
    const text = message ?? meaningOf(status);
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(text);
    Error.stackTraceLimit = limit;
  }
}

/** §Errors: the message meaning of each status, used as the default message. */
function meaningOf(status: ErrorStatus): string {
  return api.errorMeanings.find((m) => m.status === status)?.meaning ?? 'Error';
}

export const unauthorized = () => new HttpError(401);
export const notFound = (what?: string, more?: object) => new HttpError(404, undefined, what ? { resource: what, ...more } : undefined);

/** What sets an unknown endpoint's 404 apart from an unknown id's, in its message and its `data`. */
export const NOT_AN_ENDPOINT = 'not an endpoint of the document';

/**
 * 404 for a method and path the document does not list. Status and body stay the document's
 * (§Errors: 404 is "Unknown resource or no permission", and a path naming no endpoint names no
 * resource), and so does the message's meaning, which §Errors fixes per status: the message begins
 * with that text, as every 400's begins with "Bad request format". What follows it says what an
 * unknown id's 404 cannot: this is no endpoint of the document, and which ones were likely meant
 * (as the document writes them), with the methods the path takes when only the method was wrong.
 * Clients that show only `message` show that too; `data`, whose content the document leaves open
 * (UNK-ERROR-DATA), carries the same as fields for programs.
 */
export function unknownEndpoint(method: string, miss: { allowed: readonly string[]; closest: readonly string[] }, basePath?: string): HttpError {
  const named = miss.closest.length > 1 ? `${miss.closest.slice(0, -1).join(', ')} or ${miss.closest.at(-1)}` : miss.closest[0];
  const hint = [
    miss.allowed.length ? `this path takes ${miss.allowed.join(', ')}, not ${method}` : undefined,
    basePath ? `paths begin with ${basePath}` : undefined,
    named ? `did you mean ${named}?` : undefined,
  ].filter(Boolean).join('; ');
  return new HttpError(404, `${meaningOf(404)}: ${NOT_AN_ENDPOINT}${hint ? `; ${hint}` : ''}`, {
    problem: NOT_AN_ENDPOINT,
    ...(hint ? { hint } : {}),
    closest: miss.closest,
    ...(miss.allowed.length ? { allowed: miss.allowed } : {}),
  });
}

/** How every 400's message begins: the status's meaning (§Errors), then the reason. */
export const BAD_REQUEST = `${meaningOf(400)}: `;

export const badRequest = (reason: string, data?: unknown) => new HttpError(400, `${BAD_REQUEST}${reason}`, data);

/** §Resources and fields > Error body: `message`, `status` equal to the HTTP status, `data` optional. */
export function renderError(error: HttpError): ErrorBody {
  return error.data === undefined
    ? { message: error.message, status: error.status }
    : { message: error.message, status: error.status, data: error.data };
}

/**
 * ERR-BODY (§Errors, §Resources and fields > Error body): every error answer is a JSON object with
 * `message` (string) and `status` (number, equal to the HTTP status); `data` may be absent or of
 * any type (UNK-ERROR-DATA).
 */
import type { Check } from '../types.ts';
import { isObject, notJson, sentence, show } from './values.ts';

const SHAPE = 'a JSON object with `message` (string) and `status` (a number equal to the HTTP status)';

/**
 * What is wrong with the `message` and `status` of a body, in order; empty when they conform.
 * `of` is what the body is: an error (status equal to the HTTP status) or an acknowledgement
 * (status 202).
 */
export function messageStatusProblems(body: unknown, status: number, of: 'error' | 'ack' = 'error'): string[] {
  if (!isObject(body)) return [`the body is ${show(body)}, not an object`];
  const problems: string[] = [];
  const { message, status: statusField } = body;
  const says = of === 'error' ? `a number equal to the HTTP status ${status}` : `the number ${status}`;
  if (message === undefined) problems.push('`message` is missing');
  else if (typeof message !== 'string') problems.push(`\`message\` is ${show(message)}; the document says a string`);
  if (statusField === undefined) problems.push(`\`status\` is missing; the document says ${says}`);
  else if (typeof statusField !== 'number') problems.push(`\`status\` is ${show(statusField)}; the document says ${says}`);
  else if (statusField !== status)
    problems.push(of === 'error' ? `\`status\` is ${statusField} but the HTTP status is ${status}; the document says they are equal` : `\`status\` is ${statusField}; the document says ${says}`);
  return problems;
}

export const errBody: Check = {
  rule: 'ERR-BODY',
  applies: (exchange) => exchange.response !== undefined && exchange.response.status >= 400,
  check: (_, exchange) => {
    const response = exchange.response!;
    const unusable = notJson(response);
    if (unusable) {
      return {
        title: `${response.status} error body is not JSON`,
        message: `${sentence(unusable)}; every error uses the error body, ${SHAPE} (§Errors).`,
      };
    }
    const problems = messageStatusProblems(response.json, response.status);
    if (problems.length === 0) return undefined;
    return {
      title: `${response.status} error body: ${problems[0]!.split(';')[0]}`,
      message: `${sentence(problems.join('; '))}. Every error uses the error body, ${SHAPE} (§Errors).`,
    };
  },
};

/**
 * CONTENT-TYPE: "All request and response bodies are JSON (`Content-Type: application/json`)".
 * Media type names and parameter names are case-insensitive and parameters such as `charset`
 * are allowed (RFC 9110 §8.3.1).
 */
import type { Check } from '../types.ts';
import { header, quote } from './values.ts';

/** The media type of a Content-Type value, lowercased, without parameters. */
export const mediaType = (contentType: string): string => contentType.split(';')[0]!.trim().toLowerCase();

export const contentType: Check = {
  rule: 'CONTENT-TYPE',
  applies: (exchange) => exchange.response !== undefined && exchange.response.text !== '',
  check: (_, exchange) => {
    const response = exchange.response!;
    const value = header(response.headers, 'content-type');
    if (value === undefined || value.trim() === '') {
      return {
        title: `${response.status} body without a Content-Type`,
        message: `The ${response.status} answer has a body but no Content-Type header; every body is JSON (\`Content-Type: application/json\`).`,
      };
    }
    if (mediaType(value) === 'application/json') {
      // Labelled JSON is not enough: "All ... response bodies are JSON". A body not read whole (cut at the cap, too deep, encoded) is not judged here.
      if (response.json !== undefined || response.unread !== undefined || response.jsonError === undefined) return undefined;
      return {
        title: `${response.status} body is labelled application/json but is not JSON`,
        message: `The ${response.status} answer's Content-Type is ${quote(value)}, but ${response.jsonError}; every body is JSON (\`Content-Type: application/json\`).`,
      };
    }
    return {
      title: `${response.status} body is ${mediaType(value)}, not application/json`,
      message: `The ${response.status} answer's Content-Type is ${quote(value)}; every body is JSON (\`Content-Type: application/json\`, parameters such as charset allowed).`,
    };
  },
};

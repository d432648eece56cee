/**
 * How real servers re-encode what they echo, for the tests of the sanitizer and the hostile
 * servers that play such servers. Written from the encoders' documented behaviour, never from
 * the sanitizer: a test built on the code under test would share its blind spots.
 */

/** JSON as PHP's `json_encode` writes it by default: `/` as `\/`, everything past ASCII as `\uXXXX`. */
export const phpJsonEncode = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Every character as an HTML numeric reference (`&#x2f;`). */
export const htmlReferences = (text: string): string => [...text].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join('');

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

/**
 * Every character as an HTML numeric reference: hex (`&#x2f;`) or decimal (`&#47;`), its digits
 * zero-padded to `width` (`&#x000004B;`; HTML reads any number of leading zeros), upper-case hex
 * digits if asked, and the `;` left out if asked (HTML ends a reference at its first non-digit).
 */
export function htmlNumericReferences(text: string, options: { hex?: boolean; width?: number; upper?: boolean; semicolon?: boolean } = {}): string {
  const { hex = true, width = 0, upper = false, semicolon = true } = options;
  return [...text]
    .map((c) => {
      const digits = c.codePointAt(0)!.toString(hex ? 16 : 10).padStart(width, '0');
      return `&#${hex ? 'x' : ''}${upper ? digits.toUpperCase() : digits}${semicolon ? ';' : ''}`;
    })
    .join('');
}

/** Every character as an HTML hex reference (`&#x2f;`). */
export const htmlReferences = (text: string): string => htmlNumericReferences(text);

/** HTML's five escaped characters as named references without the `;` (`&amp`, `&lt`; legacy HTML reads them so). */
export const htmlNamedWithoutSemicolon = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp', '<': '&lt', '>': '&gt', '"': '&quot', "'": '&apos' })[c]!);

/** The UTF-8 bytes of `text` in lower-case hex, two digits each, `separator` between bytes (`6b:65:79`, as `xxd` or a fingerprint prints them). */
export const hexOfUtf8 = (text: string, separator = ''): string => Array.from(Buffer.from(text, 'utf8'), (byte) => byte.toString(16).padStart(2, '0')).join(separator);

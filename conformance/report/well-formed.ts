/**
 * A minimal XML 1.0 well-formedness check for the tests of the JUnit reporter (no XML parser is a
 * dependency): one root, balanced tags, quoted attributes, valid references and characters.
 */
export function wellFormed(xml: string): string[] {
  const problems: string[] = [];
  const badRef = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/;
  const badChar = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const token = /<!--[\s\S]*?-->|<\/([A-Za-z_][\w.:-]*)\s*>|<([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|([^<]+)|(<)/g;
  const stack: string[] = [];
  let roots = 0;
  for (const m of body.matchAll(token)) {
    const [all, close, open, attrs, selfClosing, text, stray] = m;
    if (stray) problems.push(`stray '<' at ${m.index}`);
    else if (text !== undefined) {
      if (!stack.length && text.trim()) problems.push(`text outside the root at ${m.index}`);
      if (badRef.test(text)) problems.push(`bad reference in text at ${m.index}`);
      if (badChar.test(text)) problems.push(`bad character in text at ${m.index}`);
    } else if (close) {
      if (stack.pop() !== close) problems.push(`unbalanced </${close}> at ${m.index}`);
    } else if (open) {
      if (!stack.length && roots++ > 0) problems.push(`second root <${open}>`);
      if (attrs && (badRef.test(attrs) || badChar.test(attrs))) problems.push(`bad attribute value in <${open}> at ${m.index}`);
      if (!selfClosing) stack.push(open);
    } else if (!all.startsWith('<!--')) problems.push(`unexpected ${all.slice(0, 20)}`);
  }
  if (stack.length) problems.push(`unclosed <${stack.join('>, <')}>`);
  if (roots !== 1) problems.push(`${roots} roots`);
  return problems;
}

/**
 * JSON read the way a hostile answer needs it read: every member kept in order, duplicate keys
 * included (`JSON.parse` keeps only the last, so a decoy after the real value would hide it), and
 * the leading value of a text with trailing garbage or cut short read as far as it goes. Iterative
 * and bounded (depth, nodes): any text costs time linear in its length.
 */

export type JsonNode =
  | { readonly kind: 'object'; readonly members: [key: string, value: JsonNode][] }
  | { readonly kind: 'array'; readonly items: JsonNode[] }
  | { readonly kind: 'string'; readonly value: string }
  /** `raw`: the number as written, so it is written back exactly. */
  | { readonly kind: 'number'; readonly raw: string }
  | { readonly kind: 'literal'; readonly value: true | false | null };

export interface JsonTree {
  /** The value read, as far as it goes; undefined when the text does not begin with one. */
  readonly root?: JsonNode;
  /** The whole text is one JSON value (white space around it aside). */
  readonly complete: boolean;
  /** The value the text begins with was read to its end (what follows it may not be JSON). */
  readonly closed: boolean;
}

export interface TreeLimits {
  readonly maxDepth: number;
  readonly maxNodes: number;
}

const DEFAULT_LIMITS: TreeLimits = { maxDepth: 256, maxNodes: 200_000 };

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

type Open = { node: Extract<JsonNode, { kind: 'object' | 'array' }>; key?: string };

/** Reads `text` as JSON into a tree that keeps what `JSON.parse` drops; stops at the first thing that is not JSON. */
export function readJsonTree(text: string, limits: TreeLimits = DEFAULT_LIMITS): JsonTree {
  const n = text.length;
  let i = 0;
  let nodes = 0;
  let root: JsonNode | undefined;
  const stack: Open[] = [];
  const skip = () => {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
  };
  /** The string at `i` (its opening quote), decoded, or undefined when it is not a whole JSON string. */
  const readString = (): string | undefined => {
    let j = i + 1;
    let escaped = false;
    while (j < n) {
      const c = text.charCodeAt(j);
      if (c === 0x22) break;
      if (c === 0x5c) {
        escaped = true;
        j += 2;
      } else j++;
    }
    if (j >= n) return undefined;
    const raw = text.slice(i, j + 1);
    i = j + 1;
    if (!escaped) return raw.slice(1, -1);
    try {
      return JSON.parse(raw) as string;
    } catch {
      return undefined;
    }
  };
  const attach = (value: JsonNode): boolean => {
    const top = stack[stack.length - 1];
    if (!top) {
      root = value;
      return true;
    }
    if (top.node.kind === 'array') top.node.items.push(value);
    else top.node.members.push([top.key!, value]);
    return true;
  };
  /** A value at `i`, scalar or the opening of a container; false where there is none. */
  const value = (): boolean => {
    if (++nodes > limits.maxNodes) return false;
    const c = text[i];
    if (c === '{' || c === '[') {
      if (stack.length >= limits.maxDepth) return false;
      const node: Open['node'] = c === '{' ? { kind: 'object', members: [] } : { kind: 'array', items: [] };
      attach(node);
      stack.push({ node });
      i++;
      return true;
    }
    if (c === '"') {
      const s = readString();
      return s !== undefined && attach({ kind: 'string', value: s });
    }
    for (const [word, literal] of LITERALS) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return attach({ kind: 'literal', value: literal });
      }
    }
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(text);
    if (!number) return false;
    i += number[0].length;
    return attach({ kind: 'number', raw: number[0] });
  };

  skip();
  if (!value()) return { complete: false, closed: false };
  for (;;) {
    const top = stack[stack.length - 1];
    if (!top) break;
    skip();
    const c = text[i];
    const empty = top.node.kind === 'array' ? top.node.items.length === 0 : top.node.members.length === 0;
    if (c === (top.node.kind === 'array' ? ']' : '}')) {
      i++;
      stack.pop();
      continue;
    }
    if (!empty) {
      if (c !== ',') return { root: root!, complete: false, closed: false };
      i++;
      skip();
    }
    if (top.node.kind === 'object') {
      if (text[i] !== '"') return { root: root!, complete: false, closed: false };
      const key = readString();
      if (key === undefined) return { root: root!, complete: false, closed: false };
      skip();
      if (text[i] !== ':') return { root: root!, complete: false, closed: false };
      i++;
      skip();
      top.key = key;
    }
    if (!value()) return { root: root!, complete: false, closed: false };
  }
  skip();
  return { root: root!, complete: i === n, closed: true };
}

const LITERALS: readonly [string, true | false | null][] = [
  ['true', true],
  ['false', false],
  ['null', null],
];

/** JSON text of a tree: members in order, duplicates kept. */
export function writeJsonTree(root: JsonNode): string {
  const out: string[] = [];
  const stack: (JsonNode | string)[] = [root];
  while (stack.length) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    switch (item.kind) {
      case 'string':
        out.push(JSON.stringify(item.value));
        break;
      case 'number':
        out.push(item.raw);
        break;
      case 'literal':
        out.push(String(item.value));
        break;
      case 'array': {
        stack.push(']');
        for (let k = item.items.length - 1; k >= 0; k--) {
          stack.push(item.items[k]!);
          if (k > 0) stack.push(',');
        }
        out.push('[');
        break;
      }
      case 'object': {
        stack.push('}');
        for (let k = item.members.length - 1; k >= 0; k--) {
          const [key, value] = item.members[k]!;
          stack.push(value, `${JSON.stringify(key)}:`);
          if (k > 0) stack.push(',');
        }
        out.push('{');
        break;
      }
    }
  }
  return out.join('');
}

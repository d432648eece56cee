/**
 * The endpoints of the document a request that matched none most likely meant, best first: the
 * mock's 404 names them, and so may anything else that meets a wrong path (the validating proxy).
 *
 * A person who gets a path wrong keeps its words more than its shape: they swap words
 * (`cdn-cache/clear`), drop or add a segment (`/environments/{id}/...` without `sites`), change a
 * separator or a plural, or name a thing by what the endpoint is called (`sftp-password` for
 * `ssh/password`, whose endpoint is `getSftpPassword`). So an endpoint is ranked by three costs:
 * - words: how few of the request's words the endpoint has (its path and its name), and of its
 *   path's words the request has, in any order;
 * - shape: the segments in order, ids where parameters stand, each literal compared by its words;
 * - method: lightest, since a right path under a wrong method is the likeliest mistake of all.
 */
import { api } from '../spec/api.ts';
import type { Endpoint } from '../spec/model.ts';
import { coverage, rememberingSimilarity, wordsOf, wordsSimilarity, type Similarity } from './name-similarity.ts';

/** A path segment as compared: a parameter (or an id in a request), or the words of a literal. */
interface Segment {
  readonly id: boolean;
  readonly words: readonly string[];
}

interface Candidate {
  readonly endpoint: Endpoint;
  readonly segments: readonly Segment[];
  /** The words of the path's literals. */
  readonly words: readonly string[];
  /** Those and the words of the endpoint's name: what a person may call it. */
  readonly vocabulary: readonly string[];
}

/** What a request segment filling a parameter looks like: an id, or a template's `{name}` copied as is. */
const ID_LIKE = /^(\{[^}]*\}|[0-9a-f-]{8,}|\d+|.*\d.*)$/i;
/** Segments of a request compared, and words of a segment: no template has a fourth as many, and more cost their square. */
const MAX_SEGMENTS = 24;
const MAX_SEGMENT_WORDS = 8;

const candidates: readonly Candidate[] = api.endpoints.map((endpoint) => {
  const segments = endpoint.path
    .split('/')
    .filter((s) => s !== '')
    .map((s): Segment => (s.startsWith('{') ? { id: true, words: [] } : { id: false, words: wordsOf(s) }));
  const words = segments.flatMap((s) => s.words);
  return { endpoint, segments, words, vocabulary: [...words, ...wordsOf(endpoint.name)] };
});

function requestSegments(path: string): Segment[] {
  const end = path.search(/[?#]/);
  return (end < 0 ? path : path.slice(0, end))
    .split('/')
    .filter((s) => s !== '')
    .slice(0, MAX_SEGMENTS)
    .map((raw) => {
      let s = raw;
      try {
        s = decodeURIComponent(raw);
      } catch {
        // Not percent-encoding a person meant: compared as typed.
      }
      return ID_LIKE.test(s) ? { id: true, words: [] } : { id: false, words: wordsOf(s).slice(0, MAX_SEGMENT_WORDS) };
    });
}

/** A segment added or dropped. */
const SKIP = 1;
/** A word where the template has a parameter: half a skip, as it may be an id a person wrote out (`/sites/main`). */
const WORD_FOR_ID = 0.5;

/** Segment edit distance, in skips, divided by the longer path: 0 the same shape, 1 nothing in place. */
function shapeDistance(path: readonly Segment[], template: readonly Segment[], similarity: Similarity): number {
  let row = Array.from({ length: template.length + 1 }, (_, j) => j * SKIP);
  for (let i = 1; i <= path.length; i++) {
    const next = [i * SKIP];
    const p = path[i - 1]!;
    for (let j = 1; j <= template.length; j++) {
      const t = template[j - 1]!;
      const cost = t.id ? (p.id ? 0 : WORD_FOR_ID) : p.id ? SKIP : 1 - wordsSimilarity(p.words, t.words, similarity);
      next.push(Math.min(row[j]! + SKIP, next[j - 1]! + SKIP, row[j - 1]! + cost));
    }
    row = next;
  }
  return row[template.length]! / Math.max(path.length, template.length, 1);
}

/**
 * 0 when the request's words are the endpoint's, 1 when none are: each request word counts by its
 * best match in the endpoint's vocabulary (its name's words too), each word of its path by its best
 * match among the request's.
 */
function wordDistance(words: readonly string[], candidate: Candidate, similarity: Similarity): number {
  const total = words.length + candidate.words.length;
  if (total === 0) return 0;
  return 1 - (coverage(words, candidate.vocabulary, similarity) + coverage(candidate.words, words, similarity)) / total;
}

/** Another method of the same kind (POST for PUT, HEAD for GET) is nearer than a read for a change. */
const SAME_KIND_METHOD = 0.1;
const OTHER_KIND_METHOD = 0.25;
const isRead = (method: string) => method === 'GET' || method === 'HEAD';
function methodDistance(method: string, endpoint: Endpoint): number {
  if (method === endpoint.method) return 0;
  return isRead(method) === isRead(endpoint.method) ? SAME_KIND_METHOD : OTHER_KIND_METHOD;
}

/** Endpoints this much farther than the nearest are still named beside it; farther ones are noise to a reader. */
const NEAR_ENOUGH = 0.25;

/**
 * The endpoints nearest to `method` and `path` (below the base path, as `matchRoute` takes it; a
 * query is ignored), best first: the nearest, and at most `limit` in all of those nearly as near.
 * Ties keep the document's order.
 */
export function closestEndpoints(method: string, path: string, limit = 3): Endpoint[] {
  const segments = requestSegments(path);
  const words = segments.flatMap((s) => s.words);
  const upper = method.toUpperCase();
  // The model's templates share most of their words: each pair is compared once.
  const similarity = rememberingSimilarity();
  const ranked = candidates
    .map((c) => ({ endpoint: c.endpoint, cost: wordDistance(words, c, similarity) + shapeDistance(segments, c.segments, similarity) + methodDistance(upper, c.endpoint) }))
    .sort((a, b) => a.cost - b.cost);
  const best = ranked[0]!.cost;
  return ranked
    .filter((r) => r.cost <= best + NEAR_ENOUGH)
    .slice(0, Math.max(0, limit))
    .map((r) => r.endpoint);
}

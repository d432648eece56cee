/** Routing in one place: the model's path templates, compiled once, matched per request. */
import { api } from '../spec/api.ts';
import type { Endpoint } from '../spec/model.ts';
import { escapeRegex } from '../spec/queries.ts';

export interface Route {
  readonly endpoint: Endpoint;
  readonly params: Readonly<Record<string, string>>;
}

interface CompiledRoute {
  readonly endpoint: Endpoint;
  readonly regex: RegExp;
  readonly names: readonly string[];
  /** Literal segments win over parameters: `/sites/environments/...` is not `/sites/{site_id}`. */
  readonly literals: number;
}

function compile(endpoint: Endpoint): CompiledRoute {
  const names: string[] = [];
  const segments = endpoint.path.split('/').slice(1);
  const source = segments
    .map((segment) => {
      const param = /^\{([a-z_]+)\}$/.exec(segment);
      if (!param) return escapeRegex(segment);
      names.push(param[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { endpoint, regex: new RegExp(`^/${source}$`), names, literals: segments.length - names.length };
}

const SLASH = 47;
/** `/a/{b}/c` has three: a template only matches paths with as many (`[^/]+` holds none). */
function countSegments(path: string): number {
  let count = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === SLASH) count++;
  return count;
}

/** Routes by method and segment count, so a request tries only the few that could match. */
const routesByShape = new Map<string, CompiledRoute[]>();
for (const route of api.endpoints.map(compile).sort((a, b) => b.literals - a.literals)) {
  const key = `${route.endpoint.method} ${countSegments(route.endpoint.path)}`;
  routesByShape.set(key, [...(routesByShape.get(key) ?? []), route]);
}

/**
 * The endpoint for a method and a path below the base path, with its decoded path parameters;
 * undefined when no endpoint of the document matches (or a parameter is not valid percent-encoding).
 */
export function matchRoute(method: string, path: string): Route | undefined {
  for (const route of routesByShape.get(`${method} ${countSegments(path)}`) ?? []) {
    const match = route.regex.exec(path);
    if (!match) continue;
    const params: Record<string, string> = {};
    for (let i = 0; i < route.names.length; i++) {
      try {
        params[route.names[i]!] = decodeURIComponent(match[i + 1]!);
      } catch {
        return undefined;
      }
    }
    return { endpoint: route.endpoint, params };
  }
  return undefined;
}

/**
 * Which API the model encodes, and which version of its document (`Versioning`: "version
 * `1.106.0`"). `api` spreads it; it stands alone so that `--version` can print it without loading
 * the whole model (the dispatcher stays instant).
 */
import type { Api } from './model.ts';

export const apiIdentity = {
  title: 'Hosted Site Management API',
  specVersion: '1.106.0',
  basePath: '/v2',
} as const satisfies Pick<Api, 'title' | 'specVersion' | 'basePath'>;

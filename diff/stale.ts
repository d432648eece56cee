/**
 * Whether the working tree's snapshot is stale: the model in spec/ would write another one (the
 * model edited, `npm run generate` not run), so a diff against it would miss the edit. Checked
 * only where this code runs from the sources of the repository the snapshot belongs to (a clone of
 * this repository): the installed package holds no model sources, and another repository's model
 * is never imported. Cheap: the diff has the model loaded already (spec/contract.ts reads it).
 */
import { existsSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { canonical } from './change.ts';
import { SNAPSHOT_PATH } from './source.ts';

/** The model's sources, present in a clone and absent from the installed package. */
const MODEL_SOURCE = join('spec', 'contract.ts');

/** Said as a warning, or with `--fail-on` as the reason for exit 2: a gate cannot judge an edit it does not see. */
export const STALE = `${SNAPSHOT_PATH} is stale (the model in spec/ would write another snapshot); run npm run generate, then diff again`;

const sameDirectory = (a: string, b: string): boolean => realpathSync(a) === realpathSync(b);

export async function isStale(repository: string, packageRoot: string): Promise<boolean> {
  if (!existsSync(join(packageRoot, MODEL_SOURCE)) || !sameDirectory(repository, packageRoot)) return false;
  const [{ api }, { contractOf }, text] = await Promise.all([import('../spec/api.ts'), import('../spec/contract.ts'), readFile(join(repository, SNAPSHOT_PATH), 'utf8')]);
  const { $comment: _banner, ...written } = JSON.parse(text) as Record<string, unknown>;
  return canonical(written) !== canonical(contractOf(api));
}

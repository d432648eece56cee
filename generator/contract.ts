/**
 * The model → `contract.json`: the contract snapshot of `spec/contract.ts`, which
 * `hosted-site-contract diff` compares between two versions. JSON has no comments: the banner
 * travels as the document's first key, `$comment`, as in `schemas.json`.
 */
import { contractOf } from '../spec/contract.ts';
import { bannerLines, normalizeText, type Generate } from './output.ts';

const GENERATOR = 'generator/contract.ts';
export const CONTRACT_FILE = 'contract.json';

export const generateContract: Generate = (api) => [
  { path: CONTRACT_FILE, contents: normalizeText(JSON.stringify({ $comment: bannerLines(api, GENERATOR).join(' '), ...contractOf(api) }, null, 2)) },
];

/** The flags of `diff`, kept free of heavy imports so `help` stays instant (bin/cli.ts reads them). */
import { configFlagRows } from '../bin/config.ts';

export const DIFF_FORMATS = ['markdown', 'json', 'junit'] as const;
export const FAIL_ON = ['client-breaking', 'server-breaking', 'any'] as const;

/** The flags as `parseFlags` reads them (the spec-upgrade guide's CI example, docs/spec-upgrades.md, is checked against them). */
export const diffFlagOptions = {
  from: { type: 'string' },
  to: { type: 'string' },
  format: { type: 'string' },
  output: { type: 'string' },
  'fail-on': { type: 'string' },
  ignore: { type: 'string' },
  'write-ignore': { type: 'string' },
  config: { type: 'string' },
  'no-config': { type: 'boolean' },
} as const;

export const diffFlags: readonly string[] = [
  '--from REF|FILE    the old snapshot: a file, or a git ref of this repository whose generated/contract.json',
  '                   is read (git show REF:generated/contract.json), e.g. --from main or --from HEAD~1',
  '--to REF|FILE      the new snapshot (default: generated/contract.json of the working tree, else of the installed package;',
  '                   in a clone, when it is not what the model writes (run npm run generate): a warning, and',
  '                   with --fail-on exit 2, since the gate cannot judge model edits the snapshot does not hold)',
  '                   an argument naming an existing file is that file; anything else is a ref',
  '--format NAME      markdown (default: a summary line and a table per class, for a pull-request comment),',
  '                   json (stable; schema: contract-diff.schema.json, in generated/ of the repository,',
  '                   hosted-site-contract/contract-diff.schema.json of the installed package) or junit (a testcase',
  '                   per breaking change; failed are those of the --fail-on class, without --fail-on every breaking one)',
  '--output FILE      write the report there instead of stdout',
  '--fail-on CLASS    exit 1 when there is a client-breaking or server-breaking change; any: either of them',
  '',
  'classes: client-breaking (existing client code may fail), server-breaking (a server that conformed may now',
  'fail the suite), deprecated, knowledge (what the document now states that it did not, and the readings made where it is silent), compatible',
  '--ignore FILE      changes accepted on purpose, one per line as KIND SUBJECT (# why): they fail no --fail-on, are',
  '                   shown as ignored, and lines that match no change any more are named',
  '--write-ignore FILE  write the breaking changes found there as an ignore file, each with its summary',
  ...configFlagRows('diff', 19),
  '',
  'exit codes: 0 compared (no change of the --fail-on class), 1 such a change, 2 bad usage, an unknown ref,',
  'a snapshot that cannot be read or is not valid (its shape, or parts that disagree: a key given twice, a',
  'reference to what it does not hold), a stale working-tree snapshot with --fail-on, or an internal error',
  '(a bug, never a verdict)',
];

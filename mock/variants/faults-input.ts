/**
 * Faults of input handling (INPUT-400, the LIMIT-* rules, INPUT-ACCEPT, NO-SERVER-ERROR): limits
 * loosened or tightened by one, invalid input accepted or answered 500, valid input refused.
 */
import type { EndpointName } from '../../generated/types.ts';
import type { Endpoint } from '../../spec/model.ts';
import { badRequest, HttpError } from '../errors.ts';
import type { Hooks, Variant } from '../variant.ts';
import { fault } from './build.ts';

type Judge = (body: Record<string, unknown>, reference: HttpError | undefined) => HttpError | undefined;

/** Replaces the input verdict of one endpoint. */
const judge = (name: EndpointName, verdict: Judge): Hooks => ({
  judgeInput: (endpoint: Endpoint, body: unknown, reference) =>
    endpoint.name === name ? verdict((body ?? {}) as Record<string, unknown>, reference) : reference,
});

const command = (body: Record<string, unknown>) => (typeof body.wp_command === 'string' ? body.wp_command : undefined);
const refuse = (why: string) => badRequest(why);
/** Accept when the reference refused only because of `why`. */
const acceptWhen = (why: (body: Record<string, unknown>) => boolean): Judge => (body, reference) => (reference && why(body) ? undefined : reference);

export const limitFaults: readonly Variant[] = [
  fault('wp-command-5001-accepted', 'LIMIT-WP-COMMAND', 'runWpCliCommand', 'A `wp_command` of 5001 characters is accepted (limit loosened by one).', judge('runWpCliCommand', acceptWhen((b) => command(b)?.length === 5001 && /^wp\s+[a-zA-Z0-9_\-./:=@'\s]+$/.test(command(b)!)))),
  fault('wp-command-5000-refused', 'LIMIT-WP-COMMAND', 'runWpCliCommand', 'A `wp_command` of exactly 5000 characters is refused (limit tightened by one).', judge('runWpCliCommand', (b, r) => ((command(b)?.length ?? 0) >= 5000 ? refuse('too long') : r))),
  fault('wp-command-semicolon-accepted', 'LIMIT-WP-COMMAND', 'runWpCliCommand', '`;` is accepted in `wp_command`.', judge('runWpCliCommand', acceptWhen((b) => /^wp\s+[a-zA-Z0-9_\-./:=@'\s;]+$/.test(command(b) ?? '') && (command(b)?.length ?? 0) <= 5000))),
  fault('wp-command-pipe-accepted', 'LIMIT-WP-COMMAND', 'runWpCliCommand', '`|` is accepted in `wp_command`.', judge('runWpCliCommand', acceptWhen((b) => /^wp\s+[a-zA-Z0-9_\-./:=@'\s|]+$/.test(command(b) ?? '') && (command(b)?.length ?? 0) <= 5000))),
  fault('wp-command-at-refused', 'LIMIT-WP-COMMAND', 'runWpCliCommand', 'An allowed character, `@`, is refused in `wp_command`.', judge('runWpCliCommand', (b, r) => (command(b)?.includes('@') ? refuse('@ not allowed') : r))),
  fault('wp-command-tab-refused', 'LIMIT-WP-COMMAND', 'runWpCliCommand', 'Tabs and newlines are refused as whitespace in `wp_command`.', judge('runWpCliCommand', (b, r) => (/[\t\n]/.test(command(b) ?? '') ? refuse('only spaces allowed') : r))),
  fault('wp-command-unanchored', 'LIMIT-WP-COMMAND', 'runWpCliCommand', 'The `wp_command` pattern is checked unanchored: any command containing `wp <word>` passes.', judge('runWpCliCommand', acceptWhen((b) => /wp\s+[a-zA-Z0-9_\-./:=@'\s]+/.test(command(b) ?? '') && (command(b)?.length ?? 0) <= 5000))),
  fault('wp-command-trailing-whitespace-alone-accepted', 'LIMIT-WP-COMMAND', 'runWpCliCommand', '`wp` and white space with nothing after it (`"wp "`) is accepted: the pattern\'s last `+` read as `*`.', judge('runWpCliCommand', acceptWhen((b) => /^wp\s+[a-zA-Z0-9_\-./:=@'\s]*$/.test(command(b) ?? '') && (command(b)?.length ?? 0) <= 5000))),
  fault('wp-command-length-after-trim', 'LIMIT-WP-COMMAND', 'runWpCliCommand', 'The length of `wp_command` is counted after trimming: 5001 characters whose last is white space are accepted.', judge('runWpCliCommand', acceptWhen((b) => /^wp\s+[a-zA-Z0-9_\-./:=@'\s]+$/.test(command(b) ?? '') && (command(b)?.trim().length ?? 0) <= 5000))),
  fault('wp-command-no-whitespace-accepted', 'LIMIT-WP-COMMAND', 'runWpCliCommand', '`wp` followed directly by the subcommand (`wplist`) is accepted.', judge('runWpCliCommand', acceptWhen((b) => /^wp[a-zA-Z0-9_\-./:=@'\s]+$/.test(command(b) ?? '')))),
  fault('web-root-relative-accepted', 'LIMIT-WEB-ROOT-SUBFOLDER', 'changeWebrootSubfolder', 'A `web_root_subfolder` without leading `/` is accepted.', judge('changeWebrootSubfolder', acceptWhen((b) => typeof b.web_root_subfolder === 'string'))),
  fault('exp-interval-anything-accepted', 'LIMIT-EXP-INTERVAL', 'changeSshExpirationInterval', 'Any string is accepted as `exp_interval`.', judge('changeSshExpirationInterval', acceptWhen((b) => typeof b.exp_interval === 'string'))),
  fault('exp-interval-days-7-refused', 'LIMIT-EXP-INTERVAL', 'changeSshExpirationInterval', '`days_7`, the one value the document shows, is refused.', judge('changeSshExpirationInterval', (b, r) => (b.exp_interval === 'days_7' ? refuse('unknown interval') : r))),
];

export const inputFaults: readonly Variant[] = [
  fault('dns-update-wrong-types-accepted', 'INPUT-400', 'updateDnsRecords', 'The DNS update accepts any body, of any types.', judge('updateDnsRecords', () => undefined)),
  fault('restore-invalid-input-500', 'INPUT-400', 'restoreBackup', 'An invalid restore request answers 500 instead of 400.', judge('restoreBackup', (_b, r) => (r ? new HttpError(500) : r))),
  fault('restore-float-backup-id-accepted', 'INPUT-400', 'restoreBackup', 'A non-integer `backup_id` (1.5, "10") is accepted.', judge('restoreBackup', acceptWhen((b) => typeof b.backup_id === 'number' || typeof b.backup_id === 'string'))),
  fault('restore-notified-user-not-uuid-accepted', 'INPUT-400', 'restoreBackup', 'A non-UUID `notified_user_id` is accepted.', judge('restoreBackup', acceptWhen((b) => typeof b.notified_user_id === 'string'))),
  fault('wpa-exists-without-email-accepted', 'INPUT-400', 'checkWpAdminUserExists', 'wpa-user-exists without its e-mail parameter answers 200.', {
    judgeInput: (endpoint, body, reference) => (endpoint.name === 'checkWpAdminUserExists' ? undefined : reference),
  }),
  fault('search-replace-malformed-json-accepted', 'INPUT-400', 'searchAndReplace', 'Search and replace acknowledges malformed or non-object bodies.', judge('searchAndReplace', () => undefined)),
  fault('reset-site-wrong-type-accepted', 'INPUT-400', 'resetSite', 'The site reset accepts an `admin_password` of any type.', judge('resetSite', acceptWhen((b) => 'admin_password' in b && typeof b.admin_password !== 'string'))),
];

/** Answers 500 to valid requests whose free text is not plain ASCII. */
const failOnUnicode = (name: EndpointName, fields: readonly string[]): Hooks => ({
  judgeInput: (endpoint, body, reference) => {
    if (endpoint.name !== name || reference) return reference;
    const text = fields.map((f) => (body as Record<string, unknown>)[f]).join('');
    return /[^\x20-\x7e]/.test(text) ? new HttpError(500) : undefined;
  },
});

export const acceptanceFaults: readonly Variant[] = [
  fault('search-replace-unicode-500', 'NO-SERVER-ERROR', 'searchAndReplace', 'Search and replace answers 500 to non-ASCII search text.', failOnUnicode('searchAndReplace', ['search', 'replace'])),
  fault('create-user-unicode-500', 'NO-SERVER-ERROR', 'createWpAdminUser', 'wpa-create-user answers 500 to non-ASCII names.', failOnUnicode('createWpAdminUser', ['first_name', 'last_name'])),
  fault('json-charset-refused-run-wp-cli-command', 'INPUT-ACCEPT', 'runWpCliCommand', 'The command runner refuses a body labelled `application/json; charset=utf-8` (the same media type) with 400.', {
    respond: (endpoint, request, response) =>
      endpoint?.name === 'runWpCliCommand' && String(request.headers['content-type'] ?? '').includes(';') ? { status: 400, body: { message: 'Content-Type must be application/json', status: 400 } } : response,
  }),
  fault('dns-update-valid-refused', 'INPUT-ACCEPT', 'updateDnsRecords', 'A valid DNS update is refused with 400.', judge('updateDnsRecords', (_b, r) => r ?? refuse('refused'))),
  fault('edge-caching-valid-500', 'NO-SERVER-ERROR', 'setEdgeCachingStatus', 'Switching edge caching off answers 500.', judge('setEdgeCachingStatus', (b, r) => r ?? (b.enabled === false ? new HttpError(500) : undefined))),
];

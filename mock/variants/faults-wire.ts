/**
 * Faults of the error body, content type, acknowledgement and operation id rules, and of the
 * transport: one broken detail each, on a named endpoint.
 */
import { randomUUID } from 'node:crypto';
import { is2xx } from '../../spec/queries.ts';
import type { Variant } from '../variant.ts';
import { combine, editError, editSuccess, fault, replaceAnswer, withHeaders } from './build.ts';
import { letterOfTheTables } from './conformant.ts';


export const errorBodyFaults: readonly Variant[] = [
  fault('error-body-without-message', 'ERR-BODY', 'getSite', 'Error bodies of GET /sites/{site_id} have no `message`.', editError('getSite', ({ message: _, ...rest }) => rest)),
  fault('error-message-number', 'ERR-BODY', 'listBackups', 'Error `message` is a number on the backups list.', editError('listBackups', (b) => ({ ...b, message: 404 }))),
  fault('error-status-string', 'ERR-BODY', 'runWpCliCommand', 'Error `status` is a string ("400") on the command runner.', editError('runWpCliCommand', (b) => ({ ...b, status: String(b.status) }))),
  fault('error-status-mismatch', 'ERR-BODY', 'listEnvironments', 'Error `status` says 400 while the HTTP status is 404.', editError('listEnvironments', (b) => ({ ...b, status: 400 }), (s) => s === 404)),
  fault('error-body-missing-on-401', 'ERR-BODY', 'listAvailableRegions', 'A 401 on the regions list has an empty body.', editError('listAvailableRegions', () => undefined, (s) => s === 401)),
  fault('error-404-says-bad-request', 'ERR-MESSAGE', 'listPlugins', 'A 404 on the plugin list says "Bad request format": the meaning of 400, not of 404.', editError('listPlugins', (b) => ({ ...b, message: 'Bad request format' }), (s) => s === 404)),
  fault('error-400-says-server-error', 'ERR-MESSAGE', 'createWpAdminUser', 'A 400 on a site-admin creation says "Error occurred while processing the request": the table\'s words for 500, not for 400.', editError('createWpAdminUser', (b) => ({ ...b, message: 'Error occurred while processing the request' }), (s) => s === 400)),
  fault('error-body-array', 'ERR-BODY', 'updateDnsRecords', 'A 400 on the DNS update is a JSON array of problems.', editError('updateDnsRecords', (b) => [b.message], (s) => s === 400)),
];

/** Refusals answered 422 (a status no table lists) with a well-formed error body: only STATUS-SET can tell. */
const as422 = (name: Parameters<typeof replaceAnswer>[0]) =>
  replaceAnswer(name, (r) => r.status === 400, (r) => ({ ...r, status: 422, body: { message: 'Unprocessable entity', status: 422 } }));

/** The themes list refuses a request with no body (what fetch-based clients send) with 400, beside the letter of every table: 400 is outside its row, so only `--strict` fails it. */
const themesBodyless400: Variant = {
  ...fault('themes-without-body-400', 'STATUS-SET', 'listThemes', 'The themes list answers 400 to a request with no body at all (a GET from fetch cannot carry one); the table lists 401, 404 and 500 only (caught under --strict).', combine(letterOfTheTables, {
    respond: (endpoint, request, response) => (endpoint?.name === 'listThemes' && request.body.length === 0 && is2xx(response.status) ? { status: 400, body: { message: 'A JSON body is required', status: 400 } } : response),
  })),
  flags: ['--strict'],
};

export const statusSetFaults: readonly Variant[] = [
  fault('cdn-clear-refusal-422', 'STATUS-SET', 'clearCdnCache', 'The CDN clear refuses a body missing required fields with 422.', as422('clearCdnCache')),
  themesBodyless400,
  fault('themes-refusal-422', 'STATUS-SET', 'listThemes', 'The themes list refuses a malformed body with 422.', as422('listThemes')),
  fault('edge-caching-refusal-422', 'STATUS-SET', 'setEdgeCachingStatus', 'The edge-caching switch refuses a mistyped body with 422.', as422('setEdgeCachingStatus')),
];

export const contentTypeFaults: readonly Variant[] = [
  fault('content-type-text-plain', 'CONTENT-TYPE', 'getSite', 'GET /sites/{site_id} answers `text/plain`.', withHeaders('getSite', { 'content-type': 'text/plain' }, is2xx)),
  fault('content-type-html-on-404', 'CONTENT-TYPE', 'getFileList', '404s of the file list are labelled `text/html`.', withHeaders('getFileList', { 'content-type': 'text/html; charset=utf-8' }, (s) => s === 404)),
  fault('content-type-missing-on-ack', 'CONTENT-TYPE', 'clearCdnCache', 'The CDN clear acknowledgement has no content type.', withHeaders('clearCdnCache', { 'content-type': undefined }, (s) => s === 202)),
];

const ackEdit = (name: Parameters<typeof editSuccess>[0], edit: (ack: Record<string, unknown>) => unknown) => editSuccess(name, edit);

export const ackFaults: readonly Variant[] = [
  fault('ack-200-instead-of-202', 'ACK-202', 'clearCdnCache', 'The CDN clear answers 200 instead of 202.', replaceAnswer('clearCdnCache', (r) => r.status === 202, (r) => ({ ...r, status: 200 }))),
  fault('ack-201-instead-of-202', 'ACK-202', 'updateDnsRecords', 'The DNS update answers 201 instead of 202.', replaceAnswer('updateDnsRecords', (r) => r.status === 202, (r) => ({ ...r, status: 201, body: { ...(r.body as object), status: 201 } }))),
  fault('ack-without-message', 'ACK-202', 'runWpCliCommand', 'The command runner acknowledges without `message`.', ackEdit('runWpCliCommand', ({ message: _, ...rest }) => rest)),
  fault('ack-status-string', 'ACK-202', 'resetSite', 'The site reset acknowledgement says `status: "202"`.', ackEdit('resetSite', (a) => ({ ...a, status: '202' }))),
  fault('ack-without-operation-id', 'ACK-202', 'searchAndReplace', 'Search and replace acknowledges without `operation_id`.', ackEdit('searchAndReplace', ({ operation_id: _, ...rest }) => rest)),
  fault('ack-status-200-in-body', 'ACK-202', 'restoreBackup', 'The restore acknowledgement says `status: 200`.', ackEdit('restoreBackup', (a) => ({ ...a, status: 200 }))),
];

const withOperationId = (name: Parameters<typeof editSuccess>[0], id: (kind: string, uuid: string) => string) =>
  ackEdit(name, (a) => {
    const current = String(a.operation_id);
    const kind = current.slice(0, current.length - 37);
    return { ...a, operation_id: id(kind, current.slice(-36)) };
  });

export const operationIdFaults: readonly Variant[] = [
  fault('opid-kind-plural', 'OPID-KIND', 'runWpCliCommand', 'Command runs carry the kind `environments:run-wp-cli-command` (plural).', withOperationId('runWpCliCommand', (_k, uuid) => `environments:run-wp-cli-command-${uuid}`)),
  fault('opid-kind-singular', 'OPID-KIND', 'searchAndReplace', 'Search and replace carries the kind `environment:search-and-replace` (singular).', withOperationId('searchAndReplace', (_k, uuid) => `environment:search-and-replace-${uuid}`)),
  fault('opid-kind-of-other-action', 'OPID-KIND', 'clearCdnCache', 'The CDN clear carries the edge-cache kind.', withOperationId('clearCdnCache', (_k, uuid) => `edge-cache:update-status-${uuid}`)),
  fault('opid-malformed-uuid', 'OPID-SHAPE', 'removeAdditionalSftpAccount', 'The SFTP removal id ends in a UUID with a short last group.', withOperationId('removeAdditionalSftpAccount', (k, uuid) => `${k}-${uuid.slice(0, -1)}`)),
  fault('opid-missing-separator', 'OPID-SHAPE', 'setEdgeCachingStatus', 'The edge-caching id has no `-` between kind and UUID.', withOperationId('setEdgeCachingStatus', (k, uuid) => `${k}${uuid}`)),
  fault('opid-bare-uuid', 'OPID-SHAPE', 'changeWebrootSubfolder', 'The webroot change id is a bare UUID.', withOperationId('changeWebrootSubfolder', () => randomUUID())),
  fault('opid-underscore-separator', 'OPID-SHAPE', 'restoreBackup', 'The restore id joins kind and UUID with `_`.', withOperationId('restoreBackup', (k, uuid) => `${k}_${uuid}`)),
];

export const transportFaults: readonly Variant[] = [
  // Not an endpoint discovery reads, so the run reaches the probes that judge it.
  fault('hang-allowed-ips', 'INPUT-ACCEPT', 'getSshAllowedIps', 'ssh/get-allowed-ips never answers a valid request.', {
    wire: (_res, response) => response.endpoint?.name === 'getSshAllowedIps' && response.status === 200,
  }),
  fault('drop-connection-themes', 'INPUT-ACCEPT', 'listThemes', 'The themes list drops the connection on success.', {
    wire: (res, response) => {
      if (response.endpoint?.name !== 'listThemes' || response.status !== 200) return false;
      res.socket?.destroy();
      return true;
    },
  }),
  fault('non-json-plugins', 'RESPONSE-SCHEMA', 'listPlugins', 'The plugins list answers an HTML page with 200.', {
    wire: (res, response) => {
      if (response.endpoint?.name !== 'listPlugins' || response.status !== 200) return false;
      res.writeHead(200, { 'content-type': 'application/json' }).end('<html><body>plugins</body></html>');
      return true;
    },
  }),
];

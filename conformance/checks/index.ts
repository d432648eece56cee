/**
 * The registry of single-exchange checks: one per rule id, in the order of the model's rules.
 * The runner applies every check whose `applies(exchange)` holds to every exchange. STATE-*
 * rules are scenarios (conformance/probes) and BASE-PATH is checked once against the target,
 * so neither is here.
 */
import { api } from '../../spec/api.ts';
import type { RuleId } from '../../spec/model.ts';
import type { Check } from '../types.ts';
import { ack202, opidKind, opidShape } from './ack.ts';
import { auth401, authBearer, authSchemeCase } from './auth.ts';
import { contentType } from './content-type.ts';
import { errBody } from './errors.ts';
import { input400, inputAccept, isolationWrite, limitExpInterval, limitWebRootSubfolder, limitWpCommand, read404 } from './expectations.ts';
import { responseSchema } from './schema.ts';
import { noServerErrorCheck } from './server-error.ts';
import { statusSet } from './status-set.ts';
import { noKeyEcho } from './key-echo.ts';
import { factsAgree } from './facts.ts';
import { ackInProgress, errMessage } from './messages.ts';

export { conflictsAccepting } from './status-set.ts';
export { describeSuccess, isSuccess, successStatuses } from './success.ts';

/** The checks that judge a probe's own expectation; each transport failure belongs to one of them or to NO-SERVER-ERROR. */
const expectationChecks: readonly Check[] = [
  auth401,
  authBearer,
  authSchemeCase,
  read404,
  isolationWrite,
  input400,
  inputAccept,
  limitWpCommand,
  limitExpInterval,
  limitWebRootSubfolder,
];

const unordered: readonly Check[] = [
  ...expectationChecks,
  errBody,
  statusSet,
  contentType,
  ack202,
  opidShape,
  opidKind,
  responseSchema,
  factsAgree,
  noKeyEcho,
  ackInProgress,
  errMessage,
  noServerErrorCheck(expectationChecks),
];

const order = new Map(api.rules.map((r, i) => [r.id, i]));

export const checks: readonly Check[] = [...unordered].sort((a, b) => order.get(a.rule)! - order.get(b.rule)!);

const byRule = new Map(checks.map((c) => [c.rule, c]));

/** The check of a rule, or undefined for rules that are not single-exchange checks (STATE-*, BASE-PATH). */
export const checkFor = (rule: RuleId): Check | undefined => byRule.get(rule);

/**
 * NO-SERVER-ERROR (§Errors, "500 | Server-side failure"): a request valid under every reading of
 * the document never gets a 5xx. Observed requests are often invalid (a conflict's probe), and
 * where the table lists 500 the letter may answer it; STATUS-SET judges their status.
 */
import { notJudged, type Check, type Exchange } from '../types.ts';
import { transportVerdict } from './expectations.ts';
import { serverSaid } from './values.ts';

/**
 * Also takes the transport failure of a probe no expectation check owns (e.g. an `observe` probe
 * of a conflict), so that every failure to answer is reported exactly once: `ownExpectation` are
 * the checks that judge probes' own expectations.
 */
export function noServerErrorCheck(ownExpectation: readonly Check[]): Check {
  const unowned = (exchange: Exchange): boolean => !ownExpectation.some((c) => c.applies(exchange));
  return {
    rule: 'NO-SERVER-ERROR',
    applies: (exchange) =>
      (exchange.response !== undefined && exchange.probe.expect === 'valid') ||
      (exchange.failure !== undefined && !notJudged(exchange.failure) && (exchange.probe.expect === 'valid' || exchange.probe.expect === 'observe') && unowned(exchange)),
    check: (_, exchange) => {
      if (exchange.failure) return transportVerdict(exchange.failure, 'an answer below 500');
      const status = exchange.response!.status;
      if (status < 500) return undefined;
      return {
        title: `server error ${status}`,
        message: `The server answered ${status} to a request valid under every reasonable reading of the document${serverSaid(exchange)}; a 5xx is a server-side failure (§Errors).`,
      };
    },
  };
}

/**
 * An endpoint's success statuses, shared by the checks, the runner and the probes.
 * Acknowledged actions: 202 (§Endpoints > Conventions). Synchronous endpoints: "not shown"
 * (UNK-SYNC-SUCCESS-STATUS); ASM-SYNC-SUCCESS-2XX reads it as any 2xx but 202 and 204, since
 * they "answer with the data directly".
 */
import type { Endpoint } from '../../spec/model.ts';
import { isAck } from '../../spec/queries.ts';

const ACK_SUCCESS: readonly number[] = [202];
const SYNC_SUCCESS: readonly number[] = Array.from({ length: 100 }, (_, i) => 200 + i).filter((s) => s !== 202 && s !== 204);

export const successStatuses = (endpoint: Endpoint): readonly number[] => (isAck(endpoint) ? ACK_SUCCESS : SYNC_SUCCESS);

export const isSuccess = (endpoint: Endpoint, status: number): boolean => successStatuses(endpoint).includes(status);

/** The success set in words, for messages: `202`, or `2xx other than 202 and 204 (ASM-SYNC-SUCCESS-2XX)`. */
export const describeSuccess = (endpoint: Endpoint): string =>
  isAck(endpoint) ? '202' : '2xx other than 202 and 204 (ASM-SYNC-SUCCESS-2XX)';

export { is2xx } from '../../spec/queries.ts';

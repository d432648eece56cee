/**
 * A refused valid request names what its validity rests on, from the model: every endpoint's
 * parameters and fields that carry an assumption are named by INPUT-ACCEPT, and by ACK-202 on
 * actions acknowledged with 202, and an endpoint that carries none names none.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../../spec/api.ts';
import { isAck } from '../../spec/queries.ts';
import { ack202 } from './ack.ts';
import { assumptionsOf, restingOn } from './assumptions.ts';
import { inputAccept } from './expectations.ts';
import { exchange, judge } from './testing.ts';

const refused = (endpoint: string) => exchange({ endpoint, status: 400, json: { message: 'no', status: 400 } });
const messageOf = (verdict: ReturnType<typeof judge>): string => (typeof verdict === 'object' ? verdict.message : '');

describe('assumptionsOf', () => {
  it('lists each parameter and body field of the model that carries an assumption, and nothing else', () => {
    for (const endpoint of api.endpoints) {
      const carriers = [...endpoint.pathParams, ...endpoint.queryParams, ...(endpoint.body ?? [])].filter((p) => p.assumption !== undefined);
      expect(assumptionsOf(endpoint)).toEqual(carriers.map((p) => ({ id: p.assumption, name: p.name })));
    }
  });

  it('finds the DNS update resting on ASM-DNS-NEW-RECORD and the existence check on ASM-WPA-QUERY-EMAIL', () => {
    const of = (name: string) => assumptionsOf(api.endpoints.find((e) => e.name === name)!).map((a) => a.id);
    expect(of('updateDnsRecords')).toContain('ASM-DNS-NEW-RECORD');
    expect(of('checkWpAdminUserExists')).toContain('ASM-WPA-QUERY-EMAIL');
  });
});

describe('a refused valid request names what it rests on', () => {
  it.each(api.endpoints.map((e) => [e.name, e] as const))('INPUT-ACCEPT, and ACK-202 on an acknowledged action: %s', (_, endpoint) => {
    const given = refused(endpoint.name);
    const rests = restingOn(endpoint);
    for (const check of isAck(endpoint) ? [ack202, inputAccept] : [inputAccept]) {
      const message = messageOf(judge(check, given));
      expect(message).toMatch(/valid/);
      for (const { id } of assumptionsOf(endpoint)) expect(message).toContain(id);
      if (!rests) expect(message).not.toMatch(/rests on/);
    }
  });
});

/**
 * The warnings a client author reads in `X-Contract-Warning` (body-warnings.ts): each code of the
 * model they cite comes with its meaning, read from the model; the fields named are the ones
 * omitted; and the text is one a header can carry.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { api } from '../spec/api.ts';
import { codeEntry, meaningOf, type Code } from '../spec/codes.ts';
import { omittedFieldsWarning, unknownFieldsWarning } from './body-warnings.ts';

const unmarked = [...new Set(api.endpoints.flatMap((e) => (e.body ?? []).filter((f) => f.presence === 'not-shown').map((f) => f.name)))];
const CODE = /\b(?:UNK|ASM|CONFLICT)-[A-Z0-9]+(?:-[A-Z0-9]+)*/g;

describe('the warning for omitted unmarked fields', () => {
  it('names exactly the fields omitted, then cites each code with its meaning from the model', () => {
    fc.assert(
      fc.property(fc.subarray(unmarked, { minLength: 1 }), (omitted) => {
        const warning = omittedFieldsWarning(omitted);
        expect(/^omitted body fields? ([^:]*):/.exec(warning)?.[1]?.split(', ')).toEqual(omitted);
        const cited = warning.match(CODE) ?? [];
        expect(cited.length).toBeGreaterThan(0);
        for (const code of cited) {
          expect(codeEntry(code), code).toBeDefined();
          expect(warning).toContain(`${code} (${meaningOf(code as Code)})`);
        }
        expect(warning).toMatch(/^[\x20-\x7e]*$/);
      }),
    );
  });

  it('says what the document leaves open in its own words (UNK-BODY-MARKING), and the assumption made of it', () => {
    const warning = omittedFieldsWarning([unmarked[0]!]);
    const unknown = api.unknowns.find((u) => u.id === 'UNK-BODY-MARKING')!;
    expect(warning.toLowerCase()).toContain(unknown.what.replace(/\.$/, '').toLowerCase());
    expect(warning).toContain('ASM-NOT-SHOWN-FIELDS-SENT (');
  });
});

describe('the warning for fields the endpoint does not have', () => {
  it('names the field meant, and nothing when all are known', () => {
    expect(unknownFieldsWarning(['backupId'], ['backup_id', 'notified_user_id'])).toContain('"backupId" (did you mean backup_id?)');
    expect(unknownFieldsWarning(['backup_id'], ['backup_id'])).toBeUndefined();
  });
});

/**
 * Case folding (scan.ts `foldText`) against its definition, unit by unit: the lower case of the
 * upper case, to a fixed point, surrogates as they are. Every unit of the Basic Multilingual
 * Plane, alone, between ASCII letters, and all of them in one text (runs of ASCII are folded
 * natively, the rest unit by unit, each unit's fold worked out on first use).
 */
import { describe, expect, it } from 'vitest';
import { foldText } from './scan.ts';

const once = (text: string): string => {
  let out = '';
  for (let i = 0; i < text.length; i++) out += text.charCodeAt(i) >= 0xd800 && text.charCodeAt(i) <= 0xdfff ? text[i] : text[i]!.toUpperCase().toLowerCase();
  return out;
};
const definition = (text: string): string =>
  text
    .split('')
    .map((unit) => {
      let folded = once(unit);
      if (folded !== unit) for (let next = once(folded); next !== folded; next = once(folded)) folded = next;
      return folded;
    })
    .join('');

describe('foldText', () => {
  it('folds every unit as its definition does, alone and between ASCII', () => {
    const differ: string[] = [];
    for (let unit = 0; unit < 0x10000; unit++) {
      const text = String.fromCharCode(unit);
      if (foldText(text) !== definition(text) || foldText(`Ab${text}Yz`) !== definition(`Ab${text}Yz`)) differ.push(unit.toString(16));
    }
    expect(differ).toEqual([]);
  });

  it('folds a text of every unit at once, and the examples the sanitizer relies on', () => {
    const all = Array.from({ length: 0x10000 }, (_, unit) => String.fromCharCode(unit)).join('');
    expect(foldText(all)).toBe(definition(all));
    expect(foldText('STRASSE Straße ẞ ﬁx İ')).toBe('strasse strasse ss fix i̇');
  });
});

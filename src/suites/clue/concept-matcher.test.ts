import { describe, expect, it } from 'vitest';
import { setF1 } from '../../metrics/set-f1.js';
import { approximateToken, ConceptMatcher } from './concept-matcher.js';

const matcher = new ConceptMatcher([
  { id: 'C0011849', name: 'Diabetes Mellitus' },
  { id: 'C0011860', name: 'Diabetes Mellitus, Type 2' },
  { id: 'C0011847', name: 'Diabetes' },
  { id: 'C0020538', name: 'Hypertension' },
  { id: 'C0020538', name: 'High blood pressure' },
  { id: 'C0005767', name: 'Blood' },
  { id: 'C0027051', name: 'Myocardial infarction' },
  { id: 'C0000001', name: 'in' },
  { id: 'C0000002', name: 'IV' },
]);

describe('ConceptMatcher', () => {
  it('takes the longest name at each position', () => {
    expect(matcher.concepts('Known diabetes mellitus type 2 on metformin.')).toEqual(new Set(['C0011860']));
    expect(matcher.concepts('Diabetes, well controlled')).toEqual(new Set(['C0011847']));
    // "high blood pressure" wins over "blood" inside it
    expect(matcher.concepts('History of high blood pressure and blood loss')).toEqual(
      new Set(['C0020538', 'C0005767']),
    );
  });

  it('matches plurals approximately and ignores stop words and very short names', () => {
    expect(matcher.concepts('two prior myocardial infarctions')).toEqual(new Set(['C0027051']));
    expect(matcher.concepts('admitted in march, IV fluids')).toEqual(new Set());
    expect(approximateToken('arteries')).toBe('artery');
    expect(approximateToken('abscess')).toBe('abscess');
    expect(approximateToken('diagnosis')).toBe('diagnosis');
  });

  it('gives UMLS F1 as a set comparison', () => {
    // output mentions {hypertension, diabetes}; reference {hypertension, MI}: P 1/2, R 1/2, F1 1/2
    const output = matcher.concepts('Hypertension. Diabetes.');
    const reference = matcher.concepts('HTN: hypertension; old myocardial infarction');
    expect(setF1(output, reference).f1).toBe(0.5);
  });
});

import { describe, expect, it } from 'vitest';
import { MEDEUREKA_TASK_KEYS } from './datasets.js';
import { applyInstruction, instructionFor, MEDEUREKA_INSTRUCTIONS } from './instructions.js';

describe('MedEureka instructions', () => {
  it('has a Figure C12 instruction for every task key, under either literature spelling', () => {
    expect(Object.keys(MEDEUREKA_INSTRUCTIONS).sort()).toEqual([...MEDEUREKA_TASK_KEYS].sort());
    expect(instructionFor('Study_en', 'e5').instruction).toBe(
      'Given a query for the experts, retrieve relevant scientific articles.',
    );
    expect(instructionFor('Disease_dignosis_zh_cross', 'e5').instruction).toBe(
      'Given a phrase, retrieve normalized disease diagnosis term.',
    );
  });

  it('combines instruction and query by each preset', () => {
    const query = '头痛三天';
    const key = 'Dialogue_zh';
    expect(applyInstruction(query, instructionFor(key, 'e5'))).toBe(
      'Instruct: 给定一个来自患者的问题，查询相关的回答。\nQuery: 头痛三天',
    );
    expect(applyInstruction(query, instructionFor(key, 'bge'))).toBe(
      '给定一个来自患者的问题，查询相关的回答。头痛三天',
    );
    expect(applyInstruction(query, instructionFor(key, 'bge-gemma2'))).toBe(
      '<instruct>给定一个来自患者的问题，查询相关的回答。\n<query>头痛三天',
    );
    expect(applyInstruction(query, instructionFor(key, 'none'))).toBe(query);
    expect(instructionFor(key, 'none')).toEqual({ instruction: null, template: 'none' });
  });

  it('accepts a literal template and leaves braces inside the query alone', () => {
    const instruction = instructionFor('Table_en', 'Represent: {instruction} | {query}');
    expect(applyInstruction('a {instruction} b', instruction)).toBe(
      'Represent: Given a query, retrieve the relevant medical table. | a {instruction} b',
    );
  });

  it('rejects an unknown preset with the list of presets', () => {
    expect(() => instructionFor('Table_en', 'e6')).toThrow(/Unknown instruction template "e6"/);
  });
});

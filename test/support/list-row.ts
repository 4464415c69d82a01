import type { ListRow } from '../../src/view/shared/view-types.js';

/** A viewer list row for tests: an answered, counted sample of its own unit, with whatever the test sets. */
export function testListRow(fields: Partial<ListRow> & Pick<ListRow, 'id' | 'task' | 'scores'>): ListRow {
  return {
    group: fields.task,
    params: {},
    status: 'ok',
    counted: true,
    unit: null,
    promptChars: 1,
    promptTokens: 1,
    cost: null,
    ...fields,
  };
}

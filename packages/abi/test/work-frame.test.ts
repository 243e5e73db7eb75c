/**
 * A decision's work_frame is its template's fields, each filled in, and `missing_evidence`: the
 * list of a decision's fields (WORK_FRAME_FIELDS) and the fields a template may set
 * (WORK_FRAME_TEXT_FIELDS, WORK_FRAME_LIST_FIELDS) must not drift apart.
 */
import { describe, expect, it } from 'vitest';
import { WORK_FRAME_FIELDS, WORK_FRAME_LIST_FIELDS, WORK_FRAME_TEXT_FIELDS } from '@adec/abi';

describe('WORK_FRAME_FIELDS', () => {
  it('holds every template field, of the kind the template sets, and missing_evidence besides', () => {
    const fields: Readonly<Record<string, string>> = WORK_FRAME_FIELDS;
    for (const field of WORK_FRAME_TEXT_FIELDS) expect([field, fields[field]]).toEqual([field, expect.stringMatching(/^text(_or_null)?$/)]);
    for (const field of WORK_FRAME_LIST_FIELDS) expect([field, fields[field]]).toEqual([field, 'texts']);
    const fromTemplates = new Set<string>([...WORK_FRAME_TEXT_FIELDS, ...WORK_FRAME_LIST_FIELDS]);
    expect(Object.keys(fields).filter((field) => !fromTemplates.has(field))).toEqual(['missing_evidence']);
  });
});

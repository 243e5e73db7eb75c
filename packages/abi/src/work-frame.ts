/**
 * A decision's work_frame (docs/spec/adjudication.md §5): what the agent may and must do next.
 * Every field a template sets (work-frame-template.ts), each filled in from the status's default
 * when the template leaves it out, and `missing_evidence`, which context binding fills. The
 * runtime builds it (packages/runtime/src/decide/work-frame.ts); the service's OpenAPI document
 * and MCP output schema describe it (packages/server/src/openapi.ts): both from this list.
 */

/** How a work_frame field holds its value: one text, a list of texts, or a text or null (no one named). */
export type WorkFrameFieldKind = 'text' | 'texts' | 'text_or_null';

/** Each field of a decision's work_frame and how it holds its value, in the order a decision writes them. */
export const WORK_FRAME_FIELDS = {
  mode: 'text',
  next_action: 'text',
  allowed_actions: 'texts',
  forbidden_actions: 'texts',
  required_output: 'texts',
  missing_evidence: 'texts',
  next_human_owner: 'text_or_null',
} as const satisfies { readonly [field: string]: WorkFrameFieldKind };

interface WorkFrameFieldValue {
  readonly text: string;
  readonly texts: readonly string[];
  readonly text_or_null: string | null;
}

/** A decision's work_frame: every field of WORK_FRAME_FIELDS, of its kind. */
export type WorkFrame = { readonly [F in keyof typeof WORK_FRAME_FIELDS]: WorkFrameFieldValue[(typeof WORK_FRAME_FIELDS)[F]] };

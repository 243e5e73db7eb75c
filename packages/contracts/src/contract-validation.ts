/**
 * Validating a value against its contract (ajv, JSON Schema draft 2020-12, strict mode): the
 * service's tests check every response and trace they see, and `ADEC_CHECK_CONTRACTS=1` makes
 * the engine check every trace it makes (a value that breaks its own contract is a bug in adec).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { TSchema } from '@sinclair/typebox';

/** RFC 3339 date-time, as the contracts write timestamps. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i;

/** A date-time whose calendar date exists (`Date.parse` would roll 2026-02-30 over into March). */
function isDateTime(text: string): boolean {
  const parts = DATE_TIME.exec(text);
  if (parts === null) return false;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ajv = new Ajv2020({
  strict: true,
  allErrors: true,
  formats: { 'date-time': isDateTime, uuid: UUID },
});

const compiled = new WeakMap<object, ValidateFunction>();

/** `schema`'s validator, compiled once (contract-violations.ts words its errors for refusals). */
export function validatorOf(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (validate === undefined) compiled.set(schema, (validate = ajv.compile(schema)));
  return validate;
}

/** Every way `value` breaks `schema`, as `path: message` lines; empty when it conforms. */
export function contractProblems(schema: TSchema, value: unknown): string[] {
  const validate = validatorOf(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'}: ${error.message ?? error.keyword}${error.keyword === 'additionalProperties' ? ` (${String((error.params as { additionalProperty?: string }).additionalProperty)})` : ''}`);
}

/** Whether the engine checks what it produces against its contracts (tests set ADEC_CHECK_CONTRACTS=1). */
export const CHECKING_CONTRACTS = process.env['ADEC_CHECK_CONTRACTS'] === '1';

/**
 * The reference for representative values: finite-model.ts `groupValues` and its helpers as
 * they were before the fast path (which skips work no attribute of the group needs).
 */
import type { NumericRange } from '../../src/model/index.js';
import type { Value } from '../../src/analyze/evaluate.js';
import type { ScalarInfo } from '../../src/analyze/finite-model.js';

/** Representatives for the attributes of one group (see the module comment). */
export function referenceGroupValues(infos: readonly ScalarInfo[], constants: readonly Value[]): Value[][] | undefined {
  const kinds = new Set(infos.map((info) => info.kind));
  if ([...kinds].every((kind) => kind === 'bool')) return infos.map(() => [false, true]);
  if ([...kinds].every((kind) => kind === 'enum' || kind === 'string')) return stringValues(infos, constants);
  if ([...kinds].every((kind) => kind === 'int' || kind === 'float')) return numericValues(infos, constants);
  return undefined; // an ill-typed comparison: the checker reported it
}

function stringValues(infos: readonly ScalarInfo[], constants: readonly Value[]): Value[][] {
  const literals = new Set<string>(constants.filter((c): c is string => typeof c === 'string'));
  for (const info of infos) for (const member of info.members ?? []) literals.add(member);
  const others: string[] = [];
  for (let i = 0; others.length < infos.length; i++) {
    const other = `\u0000other${i}`;
    if (!literals.has(other)) others.push(other);
  }
  const strings = [...literals].sort().concat(others);
  return infos.map((info) => (info.kind === 'enum' ? [...(info.members ?? [])] : strings));
}

function numericValues(infos: readonly ScalarInfo[], constants: readonly Value[]): Value[][] | undefined {
  const k = infos.length;
  const splits = new Set<number>(constants.filter((c): c is number => typeof c === 'number' && Number.isFinite(c)));
  for (const info of infos) {
    if (info.range?.min !== undefined) splits.add(info.range.min);
    if (info.range?.max !== undefined) splits.add(info.range.max);
  }
  if (splits.size === 0) splits.add(0);
  // Beyond 2^53 neighbouring integers are no longer distinct numbers, so the representatives
  // could miss a region: make no claim rather than a wrong one.
  if ([...splits].some((c) => Math.abs(c) + k + 1 > Number.MAX_SAFE_INTEGER)) return undefined;
  const integers = new Set<number>();
  for (const c of splits) {
    for (let v = Math.floor(c) - k; v <= Math.ceil(c) + k; v++) integers.add(v);
  }
  const hasInts = infos.some((info) => info.kind === 'int');
  const floatSplits = sortedNumbers(hasInts ? new Set([...splits, ...integers]) : splits);
  const floats = new Set<number>(floatSplits);
  for (let i = 1; i <= k; i++) {
    floats.add(floatSplits[0]! - i);
    floats.add(floatSplits[floatSplits.length - 1]! + i);
    for (let j = 0; j + 1 < floatSplits.length; j++) {
      const low = floatSplits[j]!;
      const high = floatSplits[j + 1]!;
      floats.add(low + ((high - low) * i) / (k + 1));
    }
  }
  const intValues = sortedNumbers(integers);
  const floatValues = sortedNumbers(floats);
  return infos.map((info) => (info.kind === 'int' ? intValues : floatValues).filter((v) => inRange(v, info.range)));
}

function sortedNumbers(values: ReadonlySet<number>): number[] {
  return [...values].sort((a, b) => a - b);
}

function inRange(value: number, range: NumericRange | undefined): boolean {
  return (range?.min === undefined || value >= range.min) && (range?.max === undefined || value <= range.max);
}


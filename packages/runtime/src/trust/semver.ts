/**
 * Semantic versions (semver.org 2.0.0), as world versions are written (the compiler's ADEC4004
 * accepts the same form): enough to compare a bundle's version with a trust file's minimum.
 */
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

export function isSemver(text: string): boolean {
  return SEMVER.test(text);
}

/**
 * Negative, zero or positive as `a` precedes, equals or follows `b` (semver §11): major, minor,
 * patch numerically; a pre-release precedes its release; pre-release identifiers compare
 * numerically when both are numbers, numbers before text, text by ASCII; build metadata is
 * ignored. Both must satisfy `isSemver`.
 */
export function compareSemver(a: string, b: string): number {
  const [left, right] = [SEMVER.exec(a), SEMVER.exec(b)];
  if (left === null || right === null) throw new TypeError(`compareSemver: \`${left === null ? a : b}\` is not a semantic version`);
  for (const part of [1, 2, 3]) {
    const order = compareNumbers(left[part]!, right[part]!);
    if (order !== 0) return order;
  }
  return comparePreReleases(left[4], right[4]);
}

function comparePreReleases(a: string | undefined, b: string | undefined): number {
  if (a === undefined || b === undefined) return (a === undefined ? 1 : 0) - (b === undefined ? 1 : 0);
  const [left, right] = [a.split('.'), b.split('.')];
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const order = compareIdentifiers(left[index]!, right[index]!);
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

function compareIdentifiers(a: string, b: string): number {
  const [numericA, numericB] = [/^\d+$/.test(a), /^\d+$/.test(b)];
  if (numericA && numericB) return compareNumbers(a, b);
  if (numericA !== numericB) return numericA ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Decimal strings, as BigInt: a version number may be past 2^53. */
function compareNumbers(a: string, b: string): number {
  const [left, right] = [BigInt(a), BigInt(b)];
  return left < right ? -1 : left > right ? 1 : 0;
}

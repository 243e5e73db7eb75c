/**
 * A field parsed from a key, signature or approval file (JSON, so never undefined or a
 * function), as a refusal quotes it: a string as it is, anything else as its JSON (an object
 * would otherwise read "[object Object]").
 */
export function fieldText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

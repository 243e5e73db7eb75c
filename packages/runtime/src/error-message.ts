/**
 * The message of anything thrown, for error values and decision metadata. Whatever was thrown
 * (a getter, a proxy, a value whose `toString` throws) yields a string; this never throws.
 */
export function messageOf(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return 'an error that cannot be described';
  }
}

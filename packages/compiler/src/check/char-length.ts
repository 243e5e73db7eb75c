/** Length in characters (code points), as the runtime and JSON Schema `maxLength` count it. */
export function charLength(text: string): number {
  return Array.from(text).length;
}

/**
 * The message this Node's JSON.parse gives for `text`: tests that assert an error quoting the
 * parser's words compare against it rather than hard-coding wording that changes across Node
 * versions.
 */
export function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(text)} is valid JSON`);
}

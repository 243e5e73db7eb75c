/** A mistake in the command line: reported with the usage text, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

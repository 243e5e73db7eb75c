/** A file-system error as the end of a sentence: "does not exist", "cannot be read (EACCES)". */
export function readProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'does not exist';
  if (code === 'EISDIR') return 'is a directory, not a file';
  return `cannot be read (${code ?? (error as Error).message})`;
}

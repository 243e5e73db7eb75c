/** A thrown value as one line of text, whatever module code threw (even a hostile object). */
export function messageOf(error: unknown): string {
  try {
    const thrown = error as { name?: unknown; message?: unknown };
    if (error !== null && typeof error === 'object' && typeof thrown.message === 'string') {
      return (typeof thrown.name === 'string' ? thrown.name + ': ' : '') + thrown.message;
    }
    return 'threw ' + String(error);
  } catch {
    return 'threw a value that cannot be described';
  }
}

/** `1 character`, `2 characters`: a count with its noun, for messages (regular plurals only). */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

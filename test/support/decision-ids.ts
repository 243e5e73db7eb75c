/**
 * Decision ids for tests that fix one: a UUID v4 (what the contracts require of a decision id),
 * the same for the same label, so a test can name "the same decision" twice.
 */
import { createHash } from 'node:crypto';

export function testDecisionId(label: string): string {
  const hex = createHash('sha256').update(label).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[parseInt(hex[16]!, 16) % 4]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

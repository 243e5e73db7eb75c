/**
 * Decision ids for tests that fix one: a UUID v4 (what the contracts require of a decision id),
 * the same for the same label, so a test can name "the same decision" twice.
 */
import { uuidV4From } from '@adec/contracts';

export const testDecisionId = (label: string): string => uuidV4From(label);

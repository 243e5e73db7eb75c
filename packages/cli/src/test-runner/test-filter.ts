/**
 * `adec test --filter <pattern>`: which tests run. A pattern selects a test when the test's
 * name, or the action or scenario it decides, contains it (case-sensitive, as names are), so
 * `--filter add_dependent` runs an action's tests and `--filter "over age"` the tests named so.
 */
import type { CheckedTest } from '@adec/compiler';

export function testMatches(test: CheckedTest, pattern: string): boolean {
  const subject = test.kind === 'adjudication' ? test.action : test.scenario;
  return test.name.includes(pattern) || subject.includes(pattern);
}

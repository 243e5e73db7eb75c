/** Which world version a module is: what routing keys, approvals and decision records name. */
import { checkString, required, shape, type Check } from './checks.js';

export interface WorldIdentity {
  readonly org: string;
  readonly domain: string;
  /** The world id: the header's `name`, else the domain. */
  readonly world: string;
  readonly version: string;
}

export const checkWorldIdentity: Check<WorldIdentity> = shape((object, path, problems) => {
  for (const key of ['org', 'domain', 'world', 'version']) required(object, key, path, problems, checkString);
});

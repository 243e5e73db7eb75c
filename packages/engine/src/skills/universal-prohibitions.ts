/**
 * docs/spec/skill-contract.md §4's universal prohibitions: content no skill may produce, whatever its own contract
 * prohibits besides. Patterns are matched against every string of the payload. They are
 * @adec/abi's, which each skill's contract document states.
 */
export { UNIVERSAL_PROHIBITIONS, type UniversalProhibition } from '@adec/abi';

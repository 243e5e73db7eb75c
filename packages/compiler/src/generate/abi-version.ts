/** The module ABI generated modules implement (ARCHITECTURE.md "Module ABI", docs/spec/adjudication.md §3). */
export { ABI_VERSION } from '@adec/abi';

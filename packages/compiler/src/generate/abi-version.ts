/** The module ABI generated modules implement (ARCHITECTURE.md "Module ABI", ADR-106). */
export { ABI_VERSION } from '@adec/abi';

/** The module ABI generated modules implement (ARCHITECTURE.md "Module ABI", ADR-106). */
export const ABI_VERSION = 2;

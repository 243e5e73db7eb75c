/** The JSON Schema dialect of every schema adec writes: draft 2020-12. */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

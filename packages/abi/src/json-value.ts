/** A value JSON can carry: what manifests, schemas' defaults and enums hold. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

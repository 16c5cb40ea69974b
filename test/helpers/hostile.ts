/**
 * Hostile requests for property-based tests, built from the server's own OpenAPI document:
 * every documented operation gets near-valid requests (so they reach the domain rules) with
 * a few fields swapped for hostile values, plus outright garbage.
 *
 * Bodies are JSON trees that can say what JSON.stringify cannot: raw number tokens (1e400,
 * -0), `__proto__` and duplicate keys, very deep nesting.
 */
export * from './hostile/json.ts';
export * from './hostile/values.ts';
export * from './hostile/openapi.ts';
export * from './hostile/mutations.ts';
export * from './hostile/query.ts';
export * from './hostile/bodies.ts';

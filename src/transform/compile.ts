/**
 * Entry point of the transform compiler for the definition loader (kept as a stable import path).
 */
export { compileDefaults, rulePath, type CompileDefaultsOptions } from './compile-defaults.js';

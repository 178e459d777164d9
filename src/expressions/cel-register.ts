/** Loading this module makes the CEL evaluator available (see cel-runtime.ts). */
import { compileCelProgram } from './cel.js';
import { registerCel } from './cel-runtime.js';

registerCel(compileCelProgram);

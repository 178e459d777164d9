/** The options of the REPL's controller: what `switchboard repl` resolved from its arguments. */
import type { ToolSet } from '../../definition/types.js';
import type { FixtureAction } from '../../harness/fixture-schema.js';
import type { Model } from '../../models/types.js';
import type { CommandConfig, ServiceConfig } from '../../session/types.js';
import type { CliIO } from '../io.js';
import type { LineSource } from './line-source.js';

/** Options of the REPL's controller (`ReplController`). */
export interface ReplOptions {
  readonly io: CliIO;
  readonly lines: LineSource;
  readonly tools: ToolSet;
  /** Absolute path of the tools file (for `/save`). */
  readonly toolsFile: string;
  /** `manual`: the person plays the model; else the given model answers. */
  readonly model: Model | 'manual';
  readonly vars: Record<string, unknown>;
  /** The host's system values (`--system-values`): caller's and called number, time zone. */
  readonly systemValues?: {
    readonly source?: string;
    readonly target?: string;
    readonly timezone?: string;
  };
  readonly language: string;
  readonly languages?: readonly string[];
  /** Services (with their secrets) for endpoint auth; never written by `/save`. */
  readonly services?: Readonly<Record<string, ServiceConfig>>;
  /** Programs command tools run (`--commands`); they run for real. */
  readonly commands?: Readonly<Record<string, CommandConfig>>;
  /** Canned host answers of action tools (`--actions`); the others are simulated. */
  readonly actions?: ReadonlyMap<string, FixtureAction>;
  readonly color: boolean;
  /**
   * Who acknowledges playback (docs/voice.md). `host`: the person does, with `/spoken`, and the
   * narration shows each utterance's speech id. Default `auto`.
   */
  readonly speechAck?: 'host' | 'auto';
}

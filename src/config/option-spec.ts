// What one row of the option table says: its type, default, help and how a repository may set it.
// The table itself is in schema.ts.
export type OptionGroup = 'model' | 'request' | 'repomap' | 'git' | 'checks' | 'session' | 'output' | 'general';

/** What a repository's own config file (or its .env) may do with a setting. */
export type RepoPolicy =
  | 'allowed'
  /** Only a value that tightens safety (false) is accepted; true is ignored with a warning. */
  | 'never-enable'
  /** Only a value that tightens safety (true) is accepted; false is ignored with a warning (the sandbox). */
  | 'never-disable'
  /** Taken, but each value needs the user's approval before it is used (commands to run). */
  | 'needs-approval'
  /**
   * Raises what a request may cost (a model, more reflections, a bigger map): taken only after the same
   * one-time approval as a command; a number at or below the default, and `false`, need none.
   */
  | 'raises-cost'
  /** Never taken from a repository: only the user's own config, environment or flags set it. */
  | 'user-only'
  /** A path: taken only when it lies inside the repository, else ignored with a warning. */
  | 'inside-repo'
  /** Used only when the user set none, after a one-time approval naming the file (the API key). */
  | 'user-first';

interface BaseSpec {
  readonly group: OptionGroup;
  readonly help: string;
  /** Placeholder in --help (`--map-tokens N`). */
  readonly metavar?: string;
  /** Single-letter alias without the dash (`m` for `-m`). */
  readonly short?: string;
  /** Command-line only: no config key, no environment variable (actions such as --help). */
  readonly cliOnly?: boolean;
  readonly repo?: RepoPolicy;
  /** Environment names read after `TANDEM_<NAME>` (the conventional OPENAI_* ones). */
  readonly extraEnv?: readonly string[];
  /** Mask the value in reports (API keys). */
  readonly secret?: boolean;
  /** The FILE... arguments; never given as `--files`. */
  readonly positional?: boolean;
  /** How the default reads in --help when it is null or computed elsewhere. */
  readonly defaultLabel?: string;
  /** `tandem eval` takes it too and passes it to every tandem run it starts. */
  readonly eval?: boolean;
}

export interface BooleanSpec extends BaseSpec {
  readonly type: 'boolean';
  readonly default: boolean;
  /** false for actions (`--help`): no `--no-` form. */
  readonly negatable?: boolean;
}
export interface StringSpec extends BaseSpec {
  readonly type: 'string';
  readonly default: string | null;
  /** `--resume` alone is allowed; see args.ts for when the next word is taken as the value. */
  readonly optionalValue?: string;
  /** Which next word is the optional value: a session id (default), or any word not starting with `-`. */
  readonly optionalValueTakes?: 'session-id' | 'word';
}
export interface IntSpec extends BaseSpec {
  readonly type: 'int';
  readonly default: number | null;
  readonly min: number;
  /** Largest accepted value (timeouts: what a timer can hold). */
  readonly max?: number;
}
export interface EnumSpec extends BaseSpec {
  readonly type: 'enum';
  readonly values: readonly string[];
  readonly default: string | null;
}
export interface ListSpec extends BaseSpec {
  readonly type: 'string[]';
  readonly default: readonly string[];
}
export type OptionSpec = BooleanSpec | StringSpec | IntSpec | EnumSpec | ListSpec;

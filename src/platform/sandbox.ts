// --sandbox: every command tandem starts for the repository runs inside bubblewrap. The file system is
// read-only but for the repository and a private /tmp, the home folder is an empty tmpfs, there is no
// network (unless asked for) and the command sees only its own processes. No sandbox, no command.
import { accessSync, constants, lstatSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { isWithin } from './path-inside.js';
import { TandemError } from './errors.js';

export interface SandboxOptions {
  /** The repository: the only folder of the host the command may write. */
  readonly root: string;
  /** Folders hidden behind an empty tmpfs (the user's home, by $HOME and by the account); missing ones are skipped. */
  readonly hiddenDirs: readonly string[];
  /** Keep the host's network (--sandbox-network). */
  readonly network: boolean;
  /** The PATH bubblewrap is looked up on (tandem's own). */
  readonly path: string | undefined;
}

export type SandboxErrorKind = 'sandbox_unavailable';

/** Bubblewrap is missing or cannot build the sandbox: the command is not run at all. */
export class SandboxError extends TandemError {
  readonly kind: SandboxErrorKind = 'sandbox_unavailable';
  constructor(message: string) {
    super(message);
    this.name = 'SandboxError';
  }
}

/** What a sandboxed command is started as: bubblewrap, its arguments, then the command's own argv. */
export interface SandboxLaunch {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
}

/**
 * The first absolute PATH entry holding an executable `bwrap`, skipping entries inside the repository:
 * a repository must not be able to ship a `bwrap` that runs its commands outside any sandbox.
 */
export function findBubblewrap(path: string | undefined, root: string): string | null {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!isAbsolute(dir) || isWithin(root, dir)) continue;
    const file = join(dir, 'bwrap');
    try {
      accessSync(file, constants.X_OK);
      if (lstatSync(file).isDirectory()) continue;
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

/** Folders inside the repository that stay read-only: git's own data and tandem's state (audit log included). */
const READ_ONLY_INSIDE = ['.git', '.tandem'];

/**
 * bubblewrap's arguments for `argv`, in mount order (a later mount covers an earlier one): the host
 * read-only, fresh /dev, /proc and /tmp, the home folders emptied, then the repository writable again
 * (it may lie under /tmp or the home folder) with its `.git` and `.tandem` read-only.
 */
export function bubblewrapArgs(options: SandboxOptions, argv: readonly string[], existing: (path: string) => boolean): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  // A home that does not exist (HOME=/nonexistent) hides nothing, and bubblewrap could not mount there.
  for (const dir of new Set(options.hiddenDirs.filter((d) => isAbsolute(d)).map((d) => resolve(d)))) {
    if (dir !== '/' && existing(dir)) args.push('--tmpfs', dir);
  }
  args.push('--bind', options.root, options.root);
  for (const name of READ_ONLY_INSIDE) {
    const inside = join(options.root, name);
    if (existing(inside)) args.push('--ro-bind', inside, inside);
  }
  args.push('--unshare-all');
  if (options.network) args.push('--share-net');
  // No capabilities even for root, the sandbox ends with tandem, and /proc shows only the sandbox's processes.
  args.push('--cap-drop', 'ALL', '--die-with-parent', '--chdir', options.root, '--', ...argv);
  return args;
}

/** The command's environment inside: the scrubbed one, with temp files going to the private /tmp. */
export function sandboxEnv(env: Record<string, string>): Record<string, string> {
  const inside: Record<string, string> = { ...env, TMPDIR: '/tmp' };
  delete inside['TMP'];
  delete inside['TEMP'];
  return inside;
}

export interface Sandbox {
  /** How to start `argv`; throws SandboxError when bubblewrap is missing (checked once). */
  launch(argv: readonly string[], env: Record<string, string>): SandboxLaunch;
  readonly bubblewrap: string | null;
  readonly options: SandboxOptions;
}

export function createSandbox(options: SandboxOptions): Sandbox {
  const bubblewrap = findBubblewrap(options.path, options.root);
  // A home folder may be a symlink (and is hidden all the same); inside the repository only real folders count.
  const existing = (path: string): boolean => {
    try {
      return (isWithin(options.root, path) ? lstatSync(path) : statSync(path)).isDirectory();
    } catch {
      return false;
    }
  };
  return {
    bubblewrap,
    options,
    launch(argv, env) {
      if (bubblewrap === null) {
        throw new SandboxError('--sandbox: bubblewrap (bwrap) is not on PATH, so no command was run (install it: apt-get install bubblewrap)');
      }
      return { file: bubblewrap, args: bubblewrapArgs(options, argv, existing), env: sandboxEnv(env) };
    },
  };
}

/** The one line for a bubblewrap that is there but cannot build the sandbox (namespaces refused). */
export function refusedMessage(output: string): string {
  const line = output.split('\n').find((l) => l.trim() !== '') ?? 'no reason given';
  return `--sandbox: bubblewrap cannot create the sandbox here (${line.trim().slice(0, 200)}), so no command was run`;
}

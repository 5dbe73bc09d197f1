// The user's model settings and metadata files, found in the home folder, the repository, the current
// folder and the flags, read in that order (later entries win field by field), a repository's with its trust.
import path from 'node:path';
import { parseModelMetadataFile, parseModelSettingsFile, type ParsedModelFile } from '../model/model-files.js';
import { lookupModelSettings, type ModelLayer } from '../model/model-settings.js';
import { firstLine, type ConfigProblem, type SettingSource } from './load.js';
import { judgeRepoModelEntry } from './repo-policy.js';
import { isBelow } from '../platform/path-inside.js';

export const MODEL_SETTINGS_FILE = '.tandem.model.settings.yml';
export const MODEL_METADATA_FILE = '.tandem.model.metadata.json';

export interface ModelFilesOptions {
  readonly homeDir: string;
  readonly repoRoot: string | null;
  readonly cwd: string;
  /** --model-settings-file / --model-metadata-file (absolute), and where each setting came from. */
  readonly settingsFile: string | null;
  readonly metadataFile: string | null;
  readonly settingsFileSource?: SettingSource;
  readonly metadataFileSource?: SettingSource;
  /** null when the file does not exist; throws for a file that may not be read (see start.ts's reader). */
  readonly readFile: (file: string) => string | null;
}

export interface ModelFilesResult {
  readonly layers: ModelLayer[];
  readonly problems: ConfigProblem[];
}

interface Place {
  readonly file: string;
  readonly kind: 'settings' | 'metadata';
  readonly trusted: boolean;
  /** A file the user named must exist. */
  readonly named: boolean;
  readonly source: SettingSource;
}

export function loadModelFiles(options: ModelFilesOptions): ModelFilesResult {
  const layers: ModelLayer[] = [];
  const problems: ConfigProblem[] = [];
  for (const place of placesOf(options)) {
    let text: string | null;
    try {
      text = options.readFile(place.file);
    } catch (error) {
      problems.push({ severity: place.trusted ? 'error' : 'warning', source: place.source, message: `${place.file}: cannot read: ${firstLine(error)}` });
      continue;
    }
    if (text === null) {
      if (place.named) problems.push({ severity: 'error', source: place.source, message: `${place.file}: file not found` });
      continue;
    }
    const parsed: ParsedModelFile = place.kind === 'settings' ? parseModelSettingsFile(text, place.file) : parseModelMetadataFile(text, place.file);
    // A repository's broken file is its problem, not a reason to refuse to start.
    for (const p of parsed.problems) problems.push({ severity: place.trusted ? p.severity : 'warning', source: place.source, message: p.message });
    const entries = parsed.entries.map(({ entry, lines, line }) => {
      if (place.trusted) return entry;
      const judged = judgeRepoModelEntry(entry, (field) => `${place.file}:${lines[field] ?? line}`, knownLimits);
      for (const message of judged.warnings) problems.push({ severity: 'warning', source: place.source, message });
      return judged.entry;
    });
    if (entries.length > 0) layers.push({ file: place.file, entries });
  }
  return { layers, problems };
}

/** The built-in table's window and reply size for a model name (a glob is looked up as written). */
function knownLimits(name: string): { contextWindow: number | null; maxOutputTokens: number | null } {
  const known = lookupModelSettings(name);
  return { contextWindow: known.contextWindow, maxOutputTokens: known.maxOutputTokens };
}

/** Home, repository root, current folder, then the named files: each folder's metadata before its settings. */
function placesOf(options: ModelFilesOptions): Place[] {
  const folders: { dir: string; trusted: boolean; source: SettingSource }[] = [{ dir: options.homeDir, trusted: true, source: 'home' }];
  const seen = new Set([clean(options.homeDir)]);
  for (const dir of [options.repoRoot, options.cwd]) {
    if (dir === null || seen.has(clean(dir))) continue;
    seen.add(clean(dir));
    // Anything found in a folder the user did not name, other than home, came with the checkout.
    folders.push({ dir, trusted: false, source: 'repo' });
  }
  const places: Place[] = folders.flatMap(({ dir, trusted, source }) => [
    { file: path.join(dir, MODEL_METADATA_FILE), kind: 'metadata' as const, trusted, named: false, source },
    { file: path.join(dir, MODEL_SETTINGS_FILE), kind: 'settings' as const, trusted, named: false, source },
  ]);
  const named = (file: string | null, kind: Place['kind'], source: SettingSource = 'flag'): void => {
    if (file === null) return;
    const fromUser = source !== 'repo' && source !== 'dotenv';
    // A file inside the repository came with the checkout, whoever named it (`.aider.model.settings.yml` in
    // your own config resolves to each clone's copy): it gets the repository's trust.
    const inRepository = options.repoRoot !== null && isBelow(options.repoRoot, path.resolve(options.cwd, file));
    places.push({ file, kind, trusted: fromUser && !inRepository, named: fromUser, source });
  };
  named(options.metadataFile, 'metadata', options.metadataFileSource);
  named(options.settingsFile, 'settings', options.settingsFileSource);
  return places;
}

function clean(p: string): string {
  return path.normalize(p).replace(/[\\/]+$/, '');
}

// The chat's three models (main, weak, editor), each held as a whole profile. A weak or editor model the
// user never chose follows the main model, as it did at start-up; one the user chose stays.
import type { ModelProfile, ProfileBuilder } from '../model/model-profile.js';

export type ModelRole = 'main' | 'weak' | 'editor';

export interface StartModels {
  readonly main: string;
  /** null: the main model's suggested weak model, else the main model. */
  readonly weak: string | null;
  /** null: the main model's suggested editor model, else the main model. */
  readonly editor: string | null;
}

export class ModelProfiles {
  private readonly current: Record<ModelRole, ModelProfile>;
  private readonly chosen = new Set<ModelRole>();
  /** Roles switched in this chat, and the command that did it (for /settings). */
  readonly changedBy = new Map<ModelRole, string>();

  constructor(
    private readonly build: ProfileBuilder,
    start: StartModels,
  ) {
    const main = build(start.main);
    if (start.weak !== null) this.chosen.add('weak');
    if (start.editor !== null) this.chosen.add('editor');
    this.current = {
      main,
      weak: build(start.weak ?? main.weakModel ?? start.main),
      editor: build(start.editor ?? main.settings.editorModel ?? start.main),
    };
  }

  get(role: ModelRole): ModelProfile {
    return this.current[role];
  }

  names(): Record<ModelRole, string> {
    return { main: this.current.main.name, weak: this.current.weak.name, editor: this.current.editor.name };
  }

  /** Switches a role to `name`; returns every role whose profile changed (followers included). */
  set(role: ModelRole, name: string, by: string): ModelRole[] {
    const profile = this.build(name);
    this.current[role] = profile;
    this.changedBy.set(role, by);
    if (role !== 'main') {
      this.chosen.add(role);
      return [role];
    }
    const changed: ModelRole[] = ['main'];
    if (!this.chosen.has('weak')) {
      this.current.weak = this.build(profile.weakModel ?? name);
      this.changedBy.set('weak', by);
      changed.push('weak');
    }
    if (!this.chosen.has('editor')) {
      // The model's settings may suggest an editor model (editor_model_name); else the main model edits.
      this.current.editor = profile.settings.editorModel ? this.build(profile.settings.editorModel) : profile;
      this.changedBy.set('editor', by);
      changed.push('editor');
    }
    return changed;
  }
}

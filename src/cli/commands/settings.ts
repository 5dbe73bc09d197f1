// /settings: the effective configuration and where each value came from, including what this chat
// changed since start-up (a /model switch changes the models, and the formats and window that follow).
import type { SettingKey, Settings } from '../../config/schema.js';
import type { SettingSource } from '../../config/load.js';
import type { ModelRole, Session } from '../../session/session.js';
import type { SlashCommand } from './types.js';

export const settingsCommand: SlashCommand = {
  name: 'settings',
  summary: 'show the effective settings and where each value came from',
  usage: '/settings  (secrets are masked; values set nowhere show their default)',
  async run(_args, ctx) {
    ctx.print(ctx.settingsReport());
    return {};
  },
};

const ROLE_KEYS: Readonly<Record<ModelRole, SettingKey>> = { main: 'model', weak: 'weak-model', editor: 'editor-model' };

/** The start-up settings with the chat's own changes laid over them, and what made each change. */
export function withChatChanges(
  settings: Settings,
  sources: ReadonlyMap<SettingKey, SettingSource>,
  session: Session,
): [Settings, ReadonlyMap<SettingKey, SettingSource>, ReadonlyMap<SettingKey, string>] {
  const values: Record<string, unknown> = { ...settings };
  const changed = new Map<SettingKey, string>();
  // What "per model" came to at start-up is worth seeing too.
  values['weak-model'] ??= session.models.weak;
  values['editor-model'] ??= session.models.editor;
  values['context-window'] ??= session.profiles.get('main').contextWindow;
  // An alias shows what it resolved to.
  for (const role of ['main', 'weak', 'editor'] as const) {
    const alias = session.profiles.get(role).alias;
    if (alias !== null) values[ROLE_KEYS[role]] = `${session.models[role]} (alias ${alias})`;
  }
  for (const [role, by] of session.profiles.changedBy) {
    const alias = session.profiles.get(role).alias;
    values[ROLE_KEYS[role]] = alias === null ? session.models[role] : `${session.models[role]} (alias ${alias})`;
    changed.set(ROLE_KEYS[role], by);
  }
  const mainBy = session.profiles.changedBy.get('main');
  if (mainBy) {
    values['context-window'] = session.profiles.get('main').contextWindow;
    changed.set('context-window', mainBy);
    if (!session.options.editFormatChosen) {
      values['edit-format'] = session.editFormat;
      changed.set('edit-format', mainBy);
    }
  }
  const editorBy = session.profiles.changedBy.get('editor');
  if (editorBy && !session.options.editorFormatChosen) {
    values['editor-edit-format'] = session.editorFormat;
    changed.set('editor-edit-format', editorBy);
  }
  return [values as Settings, sources, changed];
}

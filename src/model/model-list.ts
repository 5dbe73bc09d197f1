// `--list-models` and `/models`: the server's models and the ones tandem's table and the user's files know,
// matching a search, with context window and prices. Names come from a server: shown escaped, list bounded.
import { escapeControlChars } from '../platform/control-chars.js';
import { BUILTIN_TABLE, lookupModelSettings, type ModelLayer, type ModelPrices } from './model-settings.js';
import type { ServedModel } from './server-info.js';

export interface ModelListRow {
  readonly name: string;
  readonly contextWindow: number;
  readonly prices: ModelPrices | null;
  /** `server`, `tandem` (the built-in table) or the file that names it. */
  readonly from: string;
}

const SHOWN = 200;

export function listModels(search: string, served: readonly ServedModel[] | null, layers: readonly ModelLayer[]): ModelListRow[] {
  const needle = search.trim().toLowerCase();
  const matches = (name: string): boolean => needle === '' || name.toLowerCase().includes(needle);
  const rows = new Map<string, ModelListRow>();
  for (const model of served ?? []) {
    if (!matches(model.id)) continue;
    const settings = lookupModelSettings(model.id, layers);
    rows.set(model.id, { name: model.id, contextWindow: model.contextWindow ?? settings.contextWindow, prices: settings.prices, from: 'server' });
  }
  const known = [
    ...BUILTIN_TABLE.models.map((m) => ({ name: m.name, from: 'tandem' })),
    ...layers.flatMap((layer) => layer.entries.filter((e) => !e.name.includes('*')).map((e) => ({ name: e.name, from: layer.file }))),
  ];
  for (const { name, from } of known) {
    if (!matches(name) || rows.has(name)) continue;
    const settings = lookupModelSettings(name, layers);
    rows.set(name, { name, contextWindow: settings.contextWindow, prices: settings.prices, from });
  }
  return [...rows.values()];
}

export function renderModelList(rows: readonly ModelListRow[], search: string, serverNote: string): string {
  if (rows.length === 0) return `No model matches ${JSON.stringify(escapeControlChars(search))}.${serverNote ? ` ${serverNote}` : ''}\n`;
  const shown = rows.slice(0, SHOWN).map((row) => ({ ...row, name: escapeControlChars(row.name) }));
  const width = Math.min(60, Math.max(...shown.map((r) => r.name.length)));
  const lines = shown.map((row) => {
    const window = `${row.contextWindow.toLocaleString('en-US')} tokens`.padStart(17);
    const prices = row.prices ? `  $${row.prices.inputPerMillion}/$${row.prices.outputPerMillion} per M in/out` : '';
    return `${row.name.padEnd(width)}  ${window}${prices}  (${escapeControlChars(row.from)})`;
  });
  const more = rows.length > SHOWN ? [`... and ${rows.length - SHOWN} more; narrow the search`] : [];
  return [...lines, ...more, ...(serverNote ? [serverNote] : [])].join('\n') + '\n';
}

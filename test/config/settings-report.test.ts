import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { maskSecret, renderSettingsReport, settingsReportRows } from '../../src/config/settings-report.js';

async function loaded(homeYaml: string, env: Record<string, string>) {
  const home = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'tandem-report-'));
  fs.writeFileSync(path.join(home, '.tandem.conf.yml'), homeYaml);
  const readFile = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null);
  const result = loadConfig({ homeDir: home, repoRoot: null, env, flags: { 'map-tokens': 512 }, readFile });
  fs.rmSync(home, { recursive: true, force: true });
  return result;
}

describe('settings report', () => {
  it('shows each value with where it came from', async () => {
    const { settings, sources } = await loaded('model: qwen\nread: [NOTES.md]', { TANDEM_AUTO_TEST: '1' });
    const rows = settingsReportRows(settings, sources);
    const row = (key: string) => rows.find((r) => r.key === key);
    expect(row('model')).toEqual({ key: 'model', value: 'qwen', source: 'home' });
    expect(row('map-tokens')).toEqual({ key: 'map-tokens', value: '512', source: 'flag' });
    expect(row('auto-test')).toEqual({ key: 'auto-test', value: 'true', source: 'env' });
    expect(row('read')?.value).toBe('NOTES.md');
    expect(row('weak-model')?.value).toBe('(per model, else the main model)');
    expect(row('lint-cmd')?.value).toBe('(none)');
    expect(row('help')).toBeUndefined();

    const text = renderSettingsReport(settings, sources);
    expect(text).toMatch(/^model +qwen +\(~\/\.tandem\.conf\.yml\)$/m);
    expect(text).toMatch(/^map-tokens +512 +\(command line\)$/m);
    expect(text).toMatch(/^auto-test +true +\(environment\)$/m);
    expect(text).toMatch(/^stream +true$/m);
  });

  it('masks API keys', async () => {
    const { settings, sources } = await loaded('', { OPENAI_API_KEY: 'sk-proj-verysecretvalue1234' });
    const text = renderSettingsReport(settings, sources);
    expect(text).not.toContain('verysecret');
    expect(text).toMatch(/^api-key +\*\*\*\*1234 +\(environment\)$/m);
    expect(maskSecret('short')).toBe('****');
  });
});

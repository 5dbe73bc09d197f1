// /map and /map-refresh: print the repository map for the current chat, or rebuild it.
import type { SlashCommand } from './types.js';

export const mapCommand: SlashCommand = {
  name: 'map',
  summary: 'print the repository map for the current chat',
  usage: '/map',
  async run(_args, ctx) {
    if (!ctx.repoMap || ctx.mapTokens <= 0) {
      ctx.print('The repository map is off (--map-tokens 0).\n');
      return {};
    }
    const map = await ctx.repoMap.get({
      chatFiles: ctx.session.chatFiles,
      readOnlyFiles: ctx.session.readOnlyFiles.map((f) => f.name),
      requestText: '',
      budget: ctx.mapTokens,
    });
    ctx.print(map.trim() === '' ? 'The repository map is empty.\n' : `${map.trimEnd()}\n`);
    return {};
  },
};

export const mapRefreshCommand: SlashCommand = {
  name: 'map-refresh',
  summary: 'rebuild the repository map',
  usage: '/map-refresh',
  async run(_args, ctx) {
    ctx.refreshMap();
    ctx.print('The repository map will be rebuilt for the next request.\n');
    return {};
  },
};

// /voice: speak a request. The transcript is put at the prompt to edit or send (without a terminal it is
// sent as the next message). A missing recorder, no audio device or a server without the endpoint: one line.
import type { SlashCommand } from './types.js';

export const voiceCommand: SlashCommand = {
  name: 'voice',
  summary: 'record a request from the microphone and transcribe it',
  usage: '/voice  (records with rec or arecord, or --voice-command; Enter stops; the text comes back at the prompt)',
  async run(_args, ctx) {
    if (!ctx.transcribe) {
      ctx.print('Cannot use voice here.\n');
      return { status: 'error' };
    }
    const heard = await ctx.transcribe(ctx.signal);
    if (!heard.ok) {
      ctx.print(`Cannot use voice: ${heard.message}.\n`);
      return { status: 'error' };
    }
    if (heard.text === '') {
      ctx.print('Heard nothing.\n');
      return {};
    }
    if (ctx.prefill) {
      ctx.prefill(heard.text);
      ctx.print(`Heard: ${heard.text}\n`);
      return {};
    }
    return { request: heard.text };
  },
};

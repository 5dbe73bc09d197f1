// The real-model reply cases (test/edits/replies/) through the built CLI: the scripted server sends the
// case's reply (and its follow-up), and the repository ends exactly as after/ says, committed, with
// what had to go back to the model carried in the next request.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCliInProcess as runCli } from '../support/cli-in-process.js';
import { listTree, readReplyCase, replyCaseNames } from '../support/reply-cases.js';
import { gitRepo, statusShort } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SECOND_REQUEST = 'Thanks. Is anything else needed?';

describe('real-model reply shapes through the CLI', () => {
  for (const name of replyCaseNames()) {
    it(name, async () => {
      const spec = await readReplyCase(name);
      const script = [spec.reply, ...(spec.followup === null ? [] : [spec.followup])].map((r) => textReply(r));
      server = await startFakeOpenAI({ replies: { m: script }, fallback: textReply('Nothing else to change.') });
      const repo = gitRepo(await listTree(spec.beforeDir));
      const common = ['--yes-always', '--no-stream', '--edit-format', spec.format, '--base-url', server.url, '--model', 'm', '--weak-model', 'w', '--map-tokens', '0'];
      // A file that joins the chat must be sent with the next request: ask a second one on stdin.
      const run =
        spec.joins.length > 0
          ? await runCli([...common, ...spec.chatFiles], { cwd: repo, stdin: `please change it\n${SECOND_REQUEST}\n` })
          : await runCli(['-m', 'please change it', ...common, ...spec.chatFiles], { cwd: repo });
      expect(run.code, run.stderr).toBe(0);
      expect(await listTree(repo)).toEqual(await listTree(spec.afterDir));
      expect(statusShort(repo).split('\n').filter((l) => l !== '' && !l.includes('.tandem'))).toEqual([]);

      const requests = server.chatRequests('m');
      const toModel = [...spec.toModel, ...spec.problems, ...spec.failures.flatMap((f) => f.says)];
      const expectedRequests = spec.requests ?? (toModel.length > 0 ? 2 : 1);
      const mine = requests.filter((r) => !JSON.stringify(r.body.messages.at(-1)?.content ?? '').includes(SECOND_REQUEST));
      expect(mine).toHaveLength(expectedRequests);
      if (toModel.length > 0) {
        const second = String(mine[1]?.body.messages.at(-1)?.content ?? '');
        for (const words of toModel) expect(second).toContain(words);
      }
      if (spec.joins.length > 0) {
        const last = requests.at(-1);
        const sent = JSON.stringify(last?.body.messages ?? []);
        expect(JSON.stringify(last?.body.messages.at(-1)?.content ?? '')).toContain(SECOND_REQUEST);
        for (const file of spec.joins) expect(sent).toContain(file);
      }
    });
  }
});

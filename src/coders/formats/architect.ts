// `architect`: the planner half of the architect pairing. The main model answers with a plan and no
// edits; the session hands the plan (prompts/architect/editor-request.md) to the editor model, which
// carries it out through the coder of `--editor-edit-format`.
import { defineCoder } from '../coder.js';

export const architectCoder = defineCoder({ name: 'architect', chatMode: 'the main model plans, the editor model turns the plan into edits' });

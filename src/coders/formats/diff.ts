// `diff`: SEARCH/REPLACE blocks, each under the path of the file it changes.
import { parseSearchReplace } from '../../edits/parse-search-replace.js';
import { defineCoder } from '../coder.js';

// Models mix up where the path goes (above the fence or inside it), so both layouts read with one parser.
export const diffCoder = defineCoder({ name: 'diff', parse: parseSearchReplace });

// A scripted agent session in Node: every tool call an agent would make, and
// the exact text the model would see. Run with `npm run demo:node` in this repository, or
// `node session.mjs` in a project that has agentvfs installed.
import { createStateBackend, createTools } from 'agentvfs';

const backend = createStateBackend({
  files: {
    '/src/math.ts': 'export function sumAll(xs: number[]): number {\n  return xs.reduce((a, b) => a + b, 0);\n}\n',
    '/src/report.ts': "import { sumAll } from './math';\n\nexport const total = sumAll([1, 2, 3]);\n",
    '/README.md': '# tiny project\n\nUses sumAll from src/math.ts.\n',
  },
});
const tools = createTools(backend);

async function step(name, args) {
  const started = performance.now();
  const result = await tools.call(name, args);
  const ms = (performance.now() - started).toFixed(2);
  console.log(`\n\x1b[1m▶ ${name}(${JSON.stringify(args)})\x1b[0m  \x1b[2m${ms} ms\x1b[0m`);
  console.log(result);
  return result;
}

console.log('agentvfs: an agent renames sumAll → addAll across a small project, with no disk and no shell.');
await step('ls', { path: '/' });
await step('glob', { pattern: '**/*.ts' });
await step('grep', { pattern: '\\bsumAll\\b', output_mode: 'content' });
await step('edit_file', { path: '/src/math.ts', old_string: 'sumAll', new_string: 'addAll' }); // refused: not read yet
await step('read_file', { path: '/src/math.ts' });
await step('edit_file', { path: '/src/math.ts', old_string: 'function sumAll', new_string: 'function addAll' });
await step('read_file', { path: 'src/report.ts' });
await backend.writeFile('/src/report.ts', "import { sumAll } from './math';\n\nexport const total = sumAll([1, 2, 3, 4]);\n"); // someone else edits
await step('edit_file', { path: '/src/report.ts', old_string: 'sumAll', new_string: 'addAll', replace_all: true }); // refused: stale
await step('read_file', { path: '/src/report.ts' });
await step('edit_file', { path: '/src/report.ts', old_string: 'sumAll', new_string: 'addAll', replace_all: true });
await step('read_file', { path: '/README.md' });
await step('edit_file', { path: '/README.md', old_string: 'Uses sumAll', new_string: 'Uses addAll' });
await step('grep', { pattern: 'sumAll', output_mode: 'count' }); // none left
await step('write_file', { path: '/CHANGELOG.md', content: '- Renamed sumAll to addAll.\n' });
const snapshot = await backend.snapshot();
console.log(`\nsnapshot: ${snapshot.length} bytes; restoring it into a fresh backend…`);
const copy = createStateBackend();
await copy.restore(snapshot);
console.log((await copy.glob('**/*')).join('\n'));

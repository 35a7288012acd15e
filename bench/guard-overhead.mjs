// What a guard costs in process: the same read_file + edit_file + grep calls with no options, and with
// permissions, an approve() that allows at once and onEvent (each guarded edit reads the file, computes
// the edit and its diff, asks, then writes at the version seen). Run after `npm run build`:
//   node bench/guard-overhead.mjs
import { createStateBackend, createTools } from '../dist/index.js';
const text = `${Array.from({ length: 200 }, (_, i) => `line ${i} const x${i} = ${i};`).join('\n')}\n`;
async function run(options) {
  const b = createStateBackend({ files: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`/src/f${i}.ts`, text])) });
  const t = createTools(b, options);
  const start = performance.now();
  for (let r = 0; r < 20; r++)
    for (let i = 0; i < 50; i++) {
      const p = `/src/f${i}.ts`;
      await t.run('read_file', { path: p });
      await t.run('edit_file', { path: p, old_string: `x${r} = `, new_string: `x${r} =  ` });
      await t.run('grep', { pattern: `x${r}\\b`, path: '/src' });
    }
  return performance.now() - start;
}
const plain = {};
const guarded = { permissions: { read: ['/**'], write: ['/src/**'] }, approve: () => ({ allow: true }), onEvent: () => {} };
for (let k = 0; k < 2; k++) {
  await run(plain);
  await run(guarded);
}
const a = [],
  g = [];
for (let k = 0; k < 5; k++) {
  a.push(await run(plain));
  g.push(await run(guarded));
}
const med = (x) => x.sort((p, q) => p - q)[2];
console.log(`1000 × (read_file + edit_file + grep), 50 files of 200 lines: plain ${med(a).toFixed(0)} ms, guarded ${med(g).toFixed(0)} ms (median of 5)`);

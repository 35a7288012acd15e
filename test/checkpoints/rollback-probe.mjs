// A rollback of a ~50 MB tree: prints how much memory the rolled-back state retained over the
// state before it. Run: node --expose-gc rollback-probe.mjs [dist/index.js to test]
const { createStateBackend } = await import(process.argv[2] ?? '../../dist/index.js');
const { loadFiftyMegabytes, measure } = await import('./probe-tree.mjs');

const backend = createStateBackend({ limits: { maxTotalBytes: Infinity } });
await loadFiftyMegabytes(backend);
const first = await backend.checkpoint('loaded');
await backend.edit('/src/d0/f0.txt', 'file ', 'edited ');
await backend.writeFile('/new.txt', 'new');
const before = measure().heap;
await backend.rollback(first);
const after = measure().heap;
const f0 = await backend.read('/src/d0/f0.txt');
console.log(
  JSON.stringify({
    growth: after - before,
    files: (await backend.glob('**')).length,
    f0: new TextDecoder().decode(f0.content).slice(0, 14),
    newGone: !(await backend.exists('/new.txt')),
  }),
);

// just-bash: InMemoryFs API for load/list/read/edit, and the shell (`grep -rn`, `find`)
// through bash.exec for search. Its grep regex engine is re2js.
import { Bash, InMemoryFs } from 'just-bash';
import { ROOT, NotAvailable, countNewlines, countDirs } from './common.mjs';

export const name = 'just-bash';

const BIG = 2 ** 40;
// Raise the work/size limits the benchmark would otherwise hit at 4x/16x (public option).
const executionLimits = {
  maxInputBytes: BIG,
  maxLiveBytes: BIG,
  maxOutputSize: BIG,
  maxFileSystemBytes: BIG,
  maxTraversalEntries: BIG,
  maxTraversalWork: BIG,
  maxWorkUnits: BIG,
};
const sq = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

export async function create() {
  let fs = new InMemoryFs({}, { maxTotalBytes: Number.MAX_SAFE_INTEGER });
  let bash = new Bash({ fs, cwd: '/', executionLimits });
  async function run(cmd) {
    const r = await bash.exec(cmd);
    if (r.exitCode > 1 || r.stderr) throw new Error(`${cmd}: exit ${r.exitCode}: ${r.stderr.slice(0, 300)}`);
    return r.stdout;
  }
  await run('true'); // the first exec lazy-loads the commands
  return {
    async load(entries) {
      for (const [p, bytes] of entries) fs.writeFileSync(p, bytes);
    },
    async grep(q) {
      const flags = `-rn${q.fixed ? 'F' : 'E'}${q.ignoreCase ? 'i' : ''}`;
      return countNewlines(await run(`grep ${flags} -e ${sq(q.pattern)} ${ROOT}`));
    },
    async glob(pattern) {
      if (pattern !== '**/*.d.ts') throw new NotAvailable('only **/*.d.ts is mapped to find');
      return countNewlines(await run(`find ${ROOT} -type f -name '*.d.ts'`));
    },
    listDirs() {
      return countDirs(async (d) => (await fs.readdirWithFileTypes(d)).filter((e) => e.isDirectory).map((e) => `${d}/${e.name}`));
    },
    async read(paths) {
      let n = 0;
      for (const p of paths) n += (await fs.readFile(p)).length;
      return n;
    },
    async edit(targets) {
      // no edit API: read, replace all, write
      for (const t of targets) {
        const s = await fs.readFile(t.path);
        if (!s.includes(t.from)) throw new Error(`edit: not found in ${t.path}`);
        await fs.writeFile(t.path, s.split(t.from).join(t.to));
      }
      return targets.length;
    },
    async snapshotRestore() {
      throw new NotAvailable('InMemoryFs has no snapshot/serialize API');
    },
    async dispose() {
      fs = bash = null;
    },
  };
}

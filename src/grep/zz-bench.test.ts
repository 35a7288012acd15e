import { compileLineMatcher } from './matcher.ts';
import { RE2JS } from 're2js';
import { test } from 'vitest';
// @ts-ignore
import { loadLines } from '/tmp/grepbench/corpus.mjs';
test('bench', () => {
  const { lines } = loadLines();
  const pats = ['\\w+Sync\\(', 'function\\s+\\w+', 'foo|bar', 'TODO|FIXME', '\\bconst\\b', '[A-Z]\\w*Error', '\\w+x', '.*a.*b', 'readFileSync', '(a+)+$'];
  const time = (fn: () => number) => { let best = Infinity, n = 0; for (let i = 0; i < 5; i++) { const t = performance.now(); n = fn(); best = Math.min(best, performance.now() - t); } return [best, n]; };
  for (const ic of [false, true]) for (const p of pats) {
    const m = compileLineMatcher(p, { ignoreCase: ic });
    const js = new RegExp(p, ic ? 'iu' : 'u'); const re = RE2JS.compile(p, ic ? RE2JS.CASE_INSENSITIVE : 0);
    const [tt, c1] = time(() => { let n = 0; for (const l of lines) if (m.test(l)) n++; return n; });
    const [tf, c2] = time(() => { let n = 0; for (const l of lines) if (m.find(l)) n++; return n; });
    const [tr, c3] = time(() => { let n = 0; for (const l of lines) if (re.test(l)) n++; return n; });
    const [tn] = p.includes('.*a.*b') || p.includes('(a+)+') ? [NaN] : time(() => { let n = 0; for (const l of lines) if (l.length < 5000 && js.test(l)) n++; return n; });
    console.log(`${(ic ? '(i) ' : '') + p}`.padEnd(22), m.engine.padEnd(8), `test ${tt.toFixed(0).padStart(4)} find ${tf.toFixed(0).padStart(4)} | re2js.test ${tr.toFixed(0).padStart(4)} native ${String(Math.round(tn)).padStart(4)} | ${c1} ${c1 === c2 && c2 === c3 ? '' : 'MISMATCH ' + c2 + ' ' + c3}`);
  }
}, 900_000);

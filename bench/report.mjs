// Ratios, the printed table and the target check for bench/run.mjs.
export const JS_PEERS = ['deepagents', 'just-bash', 'cloudflare-shell', 'memfs'];
const r3 = (x) => Math.round(x * 1000) / 1000;

/** x_best_peer = median / fastest JS peer's median; x_rg = median / ripgrep's (same op and scale). */
export function addRatios(rows) {
  const groups = new Map();
  for (const r of rows) {
    const k = `${r.op}@${r.scale}`;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(r);
  }
  for (const g of groups.values()) {
    const timed = g.filter((r) => r.median_ms != null && r.median_ms > 0);
    const peers = timed.filter((r) => JS_PEERS.includes(r.system));
    const best = peers.length ? Math.min(...peers.map((r) => r.median_ms)) : null;
    const rg = timed.find((r) => r.system === 'ripgrep')?.median_ms ?? null;
    for (const r of timed) {
      if (best) r.x_best_peer = r3(r.median_ms / best);
      if (rg) r.x_rg = r3(r.median_ms / rg);
    }
  }
}

const ms = (x) => (x == null ? '-' : x < 10 ? x.toFixed(2) : x < 1000 ? x.toFixed(1) : x.toFixed(0));
const ratio = (x) => (x == null ? '' : x < 0.1 ? `${x.toFixed(3)}x` : `${x.toFixed(2)}x`);
const mb = (b) => (b / 1e6).toFixed(1);
const speed = (x) => (x >= 1 ? `${x.toFixed(2)}x faster than` : `${(1 / x).toFixed(2)}x slower than`);

function table(head, body) {
  const w = head.map((h, i) => Math.max(h.length, ...body.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i < 2 || i === cells.length - 1 ? String(c).padEnd(w[i]) : String(c).padStart(w[i]))).join('  ');
  console.log(line(head));
  console.log(w.map((n) => '-'.repeat(n)).join('  '));
  for (const r of body) console.log(line(r));
}

export function printTable(rows) {
  const ops = [...new Set(rows.map((r) => r.op))];
  for (const op of ops) {
    const rs = rows.filter((r) => r.op === op);
    console.log(`\n### ${op}  (x best peer / x rg: median divided by the fastest JS peer / by rg -j1; < 1 is faster)`);
    if (op.startsWith('retained_')) {
      table(
        ['system', 'scale', 'files', 'corpus MB', 'retained MB', 'x corpus', 'note'],
        rs.map((r) => [
          r.system,
          `${r.scale}x`,
          r.corpus_files,
          mb(r.corpus_bytes),
          r.retained_bytes == null ? '-' : mb(r.retained_bytes),
          r.x_corpus ?? '',
          r.note ?? '',
        ]),
      );
      continue;
    }
    table(
      ['system', 'scale', 'files', 'MB', 'runs', 'median ms', 'min', 'max', 'result', 'x best peer', 'x rg', 'note'],
      rs.map((r) => [
        r.system,
        `${r.scale}x`,
        r.corpus_files,
        mb(r.corpus_bytes),
        r.runs,
        ms(r.median_ms),
        ms(r.min_ms),
        ms(r.max_ms),
        r.matches ?? (r.snapshot_bytes != null ? `${mb(r.snapshot_bytes)} MB` : ''),
        ratio(r.x_best_peer),
        ratio(r.x_rg),
        [r.mismatch ? `MISMATCH: ${r.mismatch}` : '', r.note ?? ''].filter(Boolean).join('; '),
      ]),
    );
  }
}

/** Issue 7 targets for agentvfs, one line each per scale. */
export function summarizeTargets(rows) {
  console.log('\n### agentvfs vs the issue-7 targets ("on par" = within 1.25x of the fastest peer)');
  const scales = [...new Set(rows.map((r) => r.scale))];
  const get = (op, sys, s) => rows.find((r) => r.op === op && r.system === sys && r.scale === s);
  for (const s of scales) {
    const me = (op) => get(op, 'agentvfs', s);
    const peers = (op) => rows.filter((r) => r.op === op && r.scale === s && JS_PEERS.includes(r.system) && r.median_ms != null);
    const out = [];
    const check = (label, ok, detail) => out.push(`  ${ok ? 'MET ' : 'MISS'} ${label}: ${detail}`);
    for (const op of ['grep_literal', 'grep_regex', 'grep_ignore_case']) {
      const a = me(op);
      if (!a?.median_ms) continue;
      const ps = peers(op),
        rg = get(op, 'ripgrep', s);
      const worst = ps.length ? Math.min(...ps.map((p) => p.median_ms / a.median_ms)) : null;
      const vsRg = rg?.median_ms ? rg.median_ms / a.median_ms : null;
      check(
        `${op} >= 10x faster than every JS peer and faster than rg -j1`,
        worst >= 10 && (vsRg == null || vsRg > 1),
        `${worst == null ? 'no peer' : `${speed(worst)} the fastest peer`}, ${vsRg == null ? 'no rg' : `${speed(vsRg)} rg -j1`}`,
      );
    }
    // A target against peers says nothing when no peer ran (e.g. --systems agentvfs,ripgrep).
    const noPeer = (op, label) => {
      if (peers(op).length) return false;
      out.push(`  n/a  ${label}: no JS peer in this run`);
      return true;
    };
    const a = me('glob');
    if (a?.median_ms && !noPeer('glob', 'glob faster than every peer')) {
      const best = Math.min(...peers('glob').map((p) => p.median_ms));
      check('glob faster than every peer', a.median_ms < best, `${ms(a.median_ms)} ms vs fastest peer ${ms(best)} ms`);
    }
    for (const op of ['load', 'read_1000']) {
      const x = me(op);
      if (!x?.median_ms || noPeer(op, `${op} on par with the fastest peer`)) continue;
      const best = Math.min(...peers(op).map((p) => p.median_ms));
      const what = op === 'read_1000' ? ' (files read before: agentvfs keeps their decoded text)' : '';
      check(
        `${op} on par with the fastest peer${what}`,
        x.median_ms <= 1.25 * best,
        `${ms(x.median_ms)} ms vs ${ms(best)} ms (${(x.median_ms / best).toFixed(2)}x)`,
      );
    }
    const unread = me('read_1000_unread');
    if (unread?.median_ms && peers('read_1000_unread').length) {
      const best = Math.min(...peers('read_1000_unread').map((p) => p.median_ms));
      out.push(
        `  info read_1000_unread (1,000 files not read before: agentvfs decodes them): ${ms(unread.median_ms)} ms vs ${ms(best)} ms (${(unread.median_ms / best).toFixed(2)}x the fastest peer)`,
      );
    }
    const copying = me('load_copying');
    if (copying?.median_ms && peers('load').length) {
      const best = Math.min(...peers('load').map((p) => p.median_ms));
      out.push(
        `  info load with copying (uploadFiles' default; the row above keeps the arrays, copy: false): ${ms(copying.median_ms)} ms (${(copying.median_ms / best).toFixed(2)}x the fastest peer)`,
      );
    }
    const index = me('index_build');
    if (index?.median_ms) out.push(`  info grep index build (one-time, prepareSearch(); not in the grep rows): ${ms(index.median_ms)} ms`);
    // Issue 22: the first search after a wake-up (restore, or persistence opening a store) beats rg -j1.
    const rgLiteral = get('grep_literal', 'ripgrep', s)?.median_ms;
    const vsRg = (x) => (rgLiteral ? ` vs rg -j1 ${ms(rgLiteral)} ms (${(x / rgLiteral).toFixed(2)}x)` : ' (no rg in this run)');
    const first = me('first_grep');
    if (first?.median_ms) out.push(`  info first grep_literal right after a load, no prepareSearch(): ${ms(first.median_ms)} ms${vsRg(first.median_ms)}`);
    const woken = me('first_grep_restored');
    if (woken?.median_ms) {
      check(
        'first grep_literal right after a restore faster than rg -j1',
        rgLiteral != null && woken.median_ms < rgLiteral,
        `${ms(woken.median_ms)} ms${vsRg(woken.median_ms)}`,
      );
    }
    // Issue 22: snapshot + restore within 2x two plain copies of the snapshot's bytes, measured in the same process.
    const floor = me('snapshot_copy_floor')?.median_ms;
    for (const op of ['snapshot_restore', 'snapshot_restore_adopting']) {
      const snap = me(op);
      if (!snap?.median_ms || !floor) continue;
      const how = op === 'snapshot_restore' ? 'restore(bytes)' : 'restore(bytes, { copy: false })';
      check(
        `snapshot() + ${how} within 2x two plain copies`,
        snap.median_ms <= 2 * floor,
        `${ms(snap.median_ms)} ms vs ${ms(floor)} ms (${(snap.median_ms / floor).toFixed(2)}x)`,
      );
    }
    const m = me('retained_memory');
    if (m?.retained_bytes != null) check('retained memory <= 2x corpus bytes', m.x_corpus <= 2, `${mb(m.retained_bytes)} MB = ${m.x_corpus}x corpus`);
    const g = me('retained_after_grep');
    if (g?.retained_bytes != null)
      check('retained memory after the greps (index included) <= 2x corpus bytes', g.x_corpus <= 2, `${mb(g.retained_bytes)} MB = ${g.x_corpus}x corpus`);
    const e = me('retained_after_edits');
    if (e?.retained_bytes != null)
      check(
        'retained memory after the reads and edits (index and text cache included) <= 2x corpus bytes',
        e.x_corpus <= 2,
        `${mb(e.retained_bytes)} MB = ${e.x_corpus}x corpus`,
      );
    console.log(`${s}x:`);
    for (const l of out) console.log(l);
  }
  // Issue 22: loading stays linear, per MB within 1.3x across the scales.
  for (const op of ['load', 'load_copying']) {
    const rs = scales.map((sc) => get(op, 'agentvfs', sc)).filter((r) => r?.median_ms);
    if (rs.length < 2) continue;
    const perMb = rs.map((r) => r.median_ms / (r.corpus_bytes / 1e6));
    const spread = Math.max(...perMb) / Math.min(...perMb);
    const faults = (r) => (r.faults_per_mb === undefined ? '' : `, ${r.faults_per_mb} page faults/MB`);
    const detail = rs.map((r, i) => `${r.scale}x ${ms(r.median_ms)} ms = ${perMb[i].toFixed(2)} ms/MB${faults(r)}`).join(', ');
    console.log(`  ${spread <= 1.3 ? 'MET ' : 'MISS'} ${op} linear (per-MB cost within 1.3x across scales): ${detail} (${spread.toFixed(2)}x)`);
  }
}

/** One line per op and system: median at each scale and the growth per 4x more files. */
export function printScaling(rows) {
  const scales = [...new Set(rows.map((r) => r.scale))].sort((a, b) => a - b);
  if (scales.length < 2) return;
  console.log(`\n### scaling: median ms at ${scales.map((s) => `${s}x`).join(' / ')} (growth = time ratio per 4x files; 4.0 is linear)`);
  const body = [];
  for (const op of [...new Set(rows.map((r) => r.op))]) {
    if (op.startsWith('retained_')) continue;
    for (const sys of [...new Set(rows.map((r) => r.system))]) {
      const rs = scales.map((s) => rows.find((r) => r.op === op && r.system === sys && r.scale === s));
      if (!rs.some((r) => r?.median_ms)) continue;
      const pts = rs.filter((r) => r?.median_ms);
      const a = pts[0],
        b = pts[pts.length - 1];
      const growth = pts.length > 1 ? (b.median_ms / a.median_ms) ** (Math.log(4) / Math.log(b.scale / a.scale)) : null;
      body.push([
        op,
        sys,
        ...rs.map((r) => (r?.median_ms ? ms(r.median_ms) : r?.note?.startsWith('skipped') ? 'skipped' : '-')),
        growth ? growth.toFixed(1) : '',
      ]);
    }
  }
  table(['op', 'system', ...scales.map((s) => `${s}x`), 'growth'], body);
}

/** agentvfs against another build of itself (AGENTVFS_BASELINE), per op and scale, when one ran. */
export function printBaseline(rows) {
  const before = rows.filter((r) => r.system === 'agentvfs-baseline');
  if (before.length === 0) return;
  console.log('\n### agentvfs vs agentvfs-baseline (AGENTVFS_BASELINE): median after / median before; < 1 is faster now');
  const body = [];
  for (const b of before) {
    const a = rows.find((r) => r.system === 'agentvfs' && r.op === b.op && r.scale === b.scale);
    if (!a) continue;
    const timed = a.median_ms != null && b.median_ms != null;
    const value = timed
      ? [ms(b.median_ms), ms(a.median_ms), ratio(a.median_ms / b.median_ms)]
      : [
          b.retained_bytes == null ? '-' : `${mb(b.retained_bytes)} MB`,
          a.retained_bytes == null ? '-' : `${mb(a.retained_bytes)} MB`,
          b.retained_bytes ? ratio(a.retained_bytes / b.retained_bytes) : '',
        ];
    body.push([b.op, `${b.scale}x`, ...value]);
  }
  table(['op', 'scale', 'before', 'after', 'after / before'], body);
}

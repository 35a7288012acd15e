// `npm run demo` serves the playground with scripts/demo-serve.mjs: on port 4317, or on the
// next free port when that one is taken, and it prints the URL it serves. These tests hold a
// port, start the script (on the playground the e2e webServer built) and follow the printed URL.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMO_E2E_OUT_DIR } from './demo-port.ts';

const root = join(import.meta.dirname, '..');
const script = join(root, 'scripts/demo-serve.mjs');

/** Listens on `port` (0: any free one); resolves null when the port is already taken (by anyone: it is taken either way). */
async function hold(port: number): Promise<Server | null> {
  const server = createServer();
  server.listen(port, '127.0.0.1');
  const outcome = await Promise.race([once(server, 'listening').then(() => 'ok' as const), once(server, 'error').then(([e]) => e as NodeJS.ErrnoException)]);
  if (outcome === 'ok') return server;
  if (outcome.code === 'EADDRINUSE') return null;
  throw outcome;
}

/** Starts the script; resolves once it printed its URL (or exited), with everything it printed. */
async function serve(args: string[]): Promise<{ child: ChildProcess; out: string; url: string | null; code: number | null }> {
  const child = spawn(process.execPath, [script, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = await new Promise<string | null>((resolve) => {
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const found = /agentvfs playground: (http:\/\/\S+)/.exec(out);
      if (found && out.includes('Ctrl+C')) resolve(found[1]!);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('close', () => resolve(null));
  });
  return { child, out, url, code: child.exitCode };
}

/**
 * Starts the script with --port set to a port that was free a moment ago: found by listening on
 * port 0 and letting it go. Another process may take it before the script listens (the script
 * then serves on the next port and says the asked one is in use); that attempt is stopped and
 * another free port is tried, so the caller sees only what the script does with a free port.
 */
async function serveOnFreePort(attempts = 5): Promise<{ free: number; served: Awaited<ReturnType<typeof serve>> }> {
  for (let attempt = 1; ; attempt++) {
    const probe = (await hold(0))!;
    const free = (probe.address() as { port: number }).port;
    probe.close();
    await once(probe, 'close');
    const served = await serve(['--port', String(free), '--outDir', DEMO_E2E_OUT_DIR]);
    children.push(served.child);
    if (!served.out.includes(`(port ${free} is in use`) || attempt === attempts) return { free, served };
    served.child.kill();
    await once(served.child, 'exit');
  }
}

let children: ChildProcess[] = [];
let held: Server[] = [];

test.afterEach(async () => {
  for (const child of children) if (child.exitCode === null) child.kill();
  await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? once(c, 'exit') : undefined)));
  for (const server of held) server.close();
  children = [];
  held = [];
});

test('npm run demo serves on the next free port when 4317 is taken, and prints the URL', async () => {
  const holder = await hold(4317); // null: something else has it already, which is the case under test too
  if (holder) held.push(holder);
  const { child, out, url } = await serve(['--outDir', DEMO_E2E_OUT_DIR]);
  children.push(child);
  expect(url, out).not.toBeNull();
  const port = Number(new URL(url!).port);
  expect(port).toBeGreaterThan(4317);
  expect(out).toContain(`(port 4317 is in use, so it is served on port ${port} instead)`);
  expect(out).not.toMatch(/\n\s+at /); // no stack trace
  const page = await fetch(url!);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<title>agentvfs playground</title>');
});

test('--port picks the port to start from; a free one is used as it is', async () => {
  const holder = (await hold(0))!;
  held.push(holder);
  const taken = (holder.address() as { port: number }).port;
  const busy = await serve(['--port', String(taken), '--outDir', DEMO_E2E_OUT_DIR]);
  children.push(busy.child);
  expect(busy.url, busy.out).not.toBeNull();
  expect(Number(new URL(busy.url!).port)).toBeGreaterThan(taken);
  expect(busy.out).toContain(`(port ${taken} is in use, so it is served on port`);

  // A free port is served as asked, with no note.
  const { free, served: direct } = await serveOnFreePort();
  expect(direct.url, direct.out).toBe(`http://127.0.0.1:${free}/`);
  expect(direct.out).not.toContain('is in use');
  expect((await fetch(direct.url!)).status).toBe(200);
});

test('a bad option or a missing build is a one-line error, not a stack trace', async () => {
  const bad = await serve(['--port', 'abc']);
  expect(bad.url).toBeNull();
  expect(bad.code).toBe(2);
  expect(bad.out).toContain('--port must be a whole number from 1 to 65535 (got "abc")');
  const unknown = await serve(['--host', '0.0.0.0']);
  expect(unknown.code).toBe(2);
  expect(unknown.out).toContain('unknown option "--host"');
  const unbuilt = await serve(['--outDir', 'node_modules/.cache/agentvfs-demo-nothing-here']);
  expect(unbuilt.code).toBe(1);
  expect(unbuilt.out).toContain('holds no built playground. Run `npm run demo`');
  for (const r of [bad, unknown, unbuilt]) expect(r.out).not.toMatch(/\n\s+at /);
});

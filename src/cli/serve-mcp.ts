/**
 * `agentvfs mcp`: builds the workspace (from a directory, a snapshot or the save file), then
 * serves it over stdio until the client closes stdin or the process is asked to stop.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { loadPeer } from '../adapters/load-peer.ts';
import { createStateBackend } from '../backend/state-backend.ts';
import type { Backend } from '../backend/types.ts';
import { isVfsError } from '../errors.ts';
import { createMcpServer } from '../mcp/create-server.ts';
import { createTools } from '../tools/create-tools.ts';
import { runWithin, toolSet } from '../tools/tool-set.ts';
import { createFileStore, readWorkspaceFile } from '../persist/node/file-store.ts';
import { openPersistent } from '../persist/persistent.ts';
import type { WorkspaceStore } from '../persist/store.ts';
import { startsLikeSnapshot } from '../snapshot/format.ts';
import type { McpCommand } from './args.ts';
import { importDirectory } from './import-dir.ts';

import { CliError } from './cli-error.ts';

const log = (line: string) => process.stderr.write(`agentvfs mcp: ${line}\n`);

export async function serveMcp(options: McpCommand): Promise<void> {
  const { StdioServerTransport } = await loadPeer('mcp', '@modelcontextprotocol/sdk', () => import('@modelcontextprotocol/sdk/server/stdio.js'));
  const { target, started, close } = await openWorkspace(options);
  if (started !== null) log(started);

  // The calls still running, so that stopping answers (and saves) every request already read.
  const tools = createTools(target);
  const running = new Set<Promise<unknown>>();
  const server = createMcpServer(
    toolSet(
      tools.definitions,
      (name, args, call) => {
        const run = runWithin(tools, name, args, call);
        const done = () => running.delete(run);
        running.add(run);
        run.then(done, done);
        return run;
      },
      tools.preview,
    ),
  );
  let stopping: Promise<void> | undefined;
  const stop = (code: number) =>
    (stopping ??= (async () => {
      try {
        // A request read just before stdin ended reaches its tool first; each answer is written
        // (a turn after its call ends) before the workspace closes.
        await turn();
        while (running.size > 0) await Promise.allSettled([...running]);
        await turn();
        await close();
        await server.close();
      } catch (error) {
        log(`could not save on exit: ${(error as Error).message}`);
        code = 1;
      }
      // Writes to a pipe are asynchronous: exit once the answers are out (or the pipe is gone).
      await new Promise<void>((resolve) =>
        process.stdout.writableLength === 0 || process.stdout.destroyed ? resolve() : process.stdout.write('', () => resolve()),
      );
      process.exit(code);
    })());
  // The client ends the session by closing our stdin; a supervisor by a signal.
  process.stdin.on('end', () => void stop(0));
  process.stdin.on('close', () => void stop(0));
  // The client stopped reading (a closed pipe): as if it had ended the session, not a crash.
  process.stdout.on('error', () => void stop(0));
  // (SIGHUP: the terminal that started it closed.)
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(0));
  await server.connect(new StdioServerTransport());
}

/** The workspace to serve, the line that says where it came from, and what saves it on exit. */
export interface Workspace {
  target: Backend;
  started: string | null;
  close: () => Promise<void>;
}

/**
 * Builds the workspace: from --dir or --snapshot, or, with --save, from the save file when it
 * holds one (`storeFor` opens the save file's store; tests give their own).
 */
export async function openWorkspace(options: McpCommand, storeFor: (path: string) => WorkspaceStore = createFileStore): Promise<Workspace> {
  // --dir and --snapshot are read first, so a wrong one stops the command before the save file is touched.
  const start = await startingState(options);
  if (options.save === undefined) return { target: start?.backend ?? createStateBackend(), started: start?.line ?? null, close: async () => {} };
  const existed = existsSync(options.save);
  // The starting state goes in as the backend the save file opens into: a save file that holds a
  // workspace replaces it, and a new one (or one kept aside) gets it in the same first save as the
  // workspace's own record. So no save file ever holds a workspace without it: a server stopped
  // while filling a new one finds it new again on the next start, instead of restoring it empty.
  const store = storeFor(options.save);
  const { backend: saved, restored } = await openSaveFile(options.save, store, start?.backend ?? createStateBackend());
  let started: string;
  // They fill a new (or unreadable, kept aside) save file; one that holds a workspace holds the
  // agent's work since, which an MCP client restarting the server with the same command (as
  // clients do each time they start) must not throw away.
  if (restored.status === 'restored') {
    const source = options.dir !== undefined ? `--dir ${options.dir}` : options.snapshot !== undefined ? `--snapshot ${options.snapshot}` : null;
    // A workspace with nothing in it (a server that was started without --dir and wrote nothing) says so.
    const notes = [
      ...((await saved.ls('/')).length === 0 ? ['it holds no files'] : []),
      ...(source ? [`${source} fills only a new save file: delete ${options.save} to start from it again`] : []),
    ];
    started = `restored ${options.save}${notes.length ? ` (${notes.join('; ')})` : ''}`;
  } else if (start) {
    // The save file is a workspace log: each change appends what it changed, before the client hears of it.
    started = `${start.line}; saving to ${options.save} (${restored.status === 'corrupt' ? 'what it held is kept aside' : 'a new file'})`;
  } else if (restored.status === 'corrupt') started = `starting empty in ${options.save}`;
  else started = existed ? `restored ${options.save} (it holds no files)` : `${options.save} does not exist yet: starting empty`;
  const close = async () => {
    try {
      await saved.close();
    } catch (error) {
      // Its last save failed, so the store kept its lock (a later close() could still save). This
      // process exits now: let the file go, as the lock is removed on exit.
      await store.close?.();
      throw error;
    }
  };
  return { target: saved, started, close };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The workspace --dir or --snapshot asks to start from and the line that says so, or null when neither is given. */
async function startingState({ dir, snapshot, all }: McpCommand): Promise<{ backend: Backend; line: string } | null> {
  if (dir === undefined && snapshot === undefined) return null;
  if (dir !== undefined) {
    // Imported files keep their host modification times: the clock gives each write its file's.
    let importing: number | null = null;
    const backend = createStateBackend({ now: () => importing ?? Date.now() });
    const { files, skipped, leftOut } = await importDirectory(
      backend,
      dir,
      log,
      (mtimeMs) => {
        importing = mtimeMs;
      },
      { all: all === true },
    )
      .catch((error: Error) => {
        // The workspace is in memory, its limits fixed: what helps is a smaller directory.
        const full = isVfsError(error) && error.code === 'EQUOTA' ? ' Serve a smaller directory (the workspace is kept in memory).' : '';
        throw new CliError(`cannot import ${dir}: ${error.message}${full}`);
      })
      .finally(() => {
        importing = null;
      });
    const notes = [
      ...(skipped ? [`${skipped} skipped, see above`] : []),
      ...(leftOut ? [`${leftOut} .git and node_modules ${leftOut === 1 ? 'directory' : 'directories'} left out: --all copies them`] : []),
    ];
    return { backend, line: `imported ${files} file${files === 1 ? '' : 's'} from ${dir}${notes.length ? ` (${notes.join('; ')})` : ''}` };
  }
  const backend = createStateBackend();
  let bytes: Uint8Array | null;
  try {
    bytes = readWorkspaceFile(snapshot!);
  } catch (error) {
    throw new CliError(`cannot read ${snapshot}: ${(error as Error).message}`);
  }
  if (bytes === null) throw new CliError(`${snapshot}: no such file.`);
  await restoreOrRefuse(backend, bytes, snapshot!);
  return { backend, line: `restored ${snapshot}` };
}

/** Opens (or creates) the save file as a workspace store; what it holds is left untouched when it cannot be opened. */
async function openSaveFile(save: string, store: WorkspaceStore, into: Backend) {
  const existed = existsSync(save);
  // A snapshot saved by an earlier version is migrated to a log on open; check it restores first,
  // so a damaged one stops the command instead of being set aside. (A log is only read once, by the store.)
  if (existed) {
    try {
      if (startsLikeSnapshot(head(save))) await restoreOrRefuse(createStateBackend(), new Uint8Array(readFileSync(save)), save);
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError(`cannot open ${save}: ${(error as Error).message}`);
    }
  }
  const opened = await openPersistent(into, store, { durability: 'immediate' }).catch((error: Error) => {
    throw new CliError(`cannot open ${save}: ${error.message}`);
  });
  if (opened.restored.status === 'corrupt') log(opened.restored.reason);
  return opened;
}

async function restoreOrRefuse(backend: Backend, bytes: Uint8Array, file: string): Promise<void> {
  try {
    await backend.restore(bytes);
  } catch (error) {
    // The file is left exactly as it is: nothing is saved over a workspace that could not be read.
    if (isVfsError(error)) throw new CliError(`${file} is not a snapshot this agentvfs can restore: ${error.message}`);
    throw error;
  }
}

/** The first bytes of a file: enough to tell a snapshot from a workspace log without reading it all. */
function head(path: string): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const bytes = new Uint8Array(16);
    return bytes.subarray(0, readSync(fd, bytes, 0, bytes.length, 0));
  } finally {
    closeSync(fd);
  }
}

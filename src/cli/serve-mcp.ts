/**
 * `agentvfs mcp`: builds the workspace (from a directory, a snapshot or the save file), then
 * serves it over stdio until the client closes stdin or the process is asked to stop.
 */
import { loadPeer } from '../adapters/load-peer.ts';
import { createStateBackend } from '../backend/state-backend.ts';
import type { Backend } from '../backend/types.ts';
import { isVfsError } from '../errors.ts';
import { createMcpServer } from '../mcp/create-server.ts';
import { persist } from '../persist/persistent.ts';
import type { McpCommand } from './args.ts';
import { importDirectory } from './import-dir.ts';
import { readSnapshotFile, snapshotFile } from './snapshot-file.ts';

/** A failure to report on stderr before exiting with status 1 (no stack: it says what to do). */
export class CliError extends Error {
  override name = 'CliError';
}

const log = (line: string) => process.stderr.write(`agentvfs mcp: ${line}\n`);

export async function serveMcp(options: McpCommand): Promise<void> {
  const { StdioServerTransport } = await loadPeer('mcp', '@modelcontextprotocol/sdk', () => import('@modelcontextprotocol/sdk/server/stdio.js'));
  const backend = createStateBackend();
  await fill(backend, options);

  let target: Backend = backend;
  let close = async () => {};
  if (options.save !== undefined) {
    const store = snapshotFile(options.save);
    // Saved once now, so the file holds the workspace from the start; then before each change is acknowledged.
    await store.save(await backend.snapshot()).catch((error: Error) => {
      throw new CliError(`cannot write ${options.save}: ${error.message}`);
    });
    const saved = persist(backend, store, { durability: 'immediate' });
    target = saved;
    // A last save on exit whatever happened since (a save that failed, a file removed meanwhile).
    close = async () => {
      await saved.close();
      await store.save(await backend.snapshot());
    };
  }

  const server = createMcpServer(target);
  let stopping: Promise<void> | undefined;
  const stop = (code: number) =>
    (stopping ??= (async () => {
      try {
        await close();
        await server.close();
      } catch (error) {
        log(`could not save on exit: ${(error as Error).message}`);
        code = 1;
      }
      process.exit(code);
    })());
  // The client ends the session by closing our stdin; a supervisor by a signal.
  process.stdin.on('end', () => void stop(0));
  process.stdin.on('close', () => void stop(0));
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  await server.connect(new StdioServerTransport());
}

async function fill(backend: Backend, { dir, snapshot, save }: McpCommand): Promise<void> {
  if (dir !== undefined) {
    const { files, skipped } = await importDirectory(backend, dir, log).catch((error: Error) => {
      throw new CliError(`cannot import ${dir}: ${error.message}`);
    });
    log(`imported ${files} file${files === 1 ? '' : 's'} from ${dir}${skipped ? ` (${skipped} skipped, see above)` : ''}`);
    return;
  }
  const from = snapshot ?? save;
  if (from === undefined) return;
  const bytes = await readSnapshotFile(from).catch((error: Error) => {
    throw new CliError(`cannot read ${from}: ${error.message}`);
  });
  if (bytes === null) {
    if (snapshot !== undefined) throw new CliError(`${snapshot}: no such file.`);
    log(`${save} does not exist yet: starting empty`);
    return;
  }
  try {
    await backend.restore(bytes);
  } catch (error) {
    // The file is left exactly as it is: nothing is saved over a snapshot that could not be read.
    if (isVfsError(error)) throw new CliError(`${from} is not a snapshot this agentvfs can restore: ${error.message}`);
    throw error;
  }
  log(`restored ${from}`);
}

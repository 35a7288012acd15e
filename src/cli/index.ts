#!/usr/bin/env node
/**
 * The `agentvfs` command (Node only): `agentvfs mcp [--dir PATH [--all] | --snapshot FILE] [--save FILE]`.
 * Exit status: 0 done, 1 failed (the reason on stderr), 2 bad command line (with the usage).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, USAGE, UsageError } from './args.ts';
import { CliError } from './cli-error.ts';

try {
  const parsed = parseArgs(process.argv.slice(2));
  if (parsed.command === 'help') process.stdout.write(USAGE);
  else if (parsed.command === 'version') process.stdout.write(`${packageVersion()}\n`);
  else {
    (await import('./peers-from-cwd.ts')).findPeersFromWorkingDirectory();
    // Loaded here, inside the try: without the MCP SDK, loading it fails with the npm install line.
    await (await import('./serve-mcp.ts')).serveMcp(parsed);
  }
} catch (error) {
  if (error instanceof UsageError) {
    process.stderr.write(`agentvfs: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  const known = error instanceof CliError || isMissingPeer(error);
  // Under npx, a package is added with -p, not installed.
  const npx = isMissingPeer(error) && process.env.npm_command === 'exec' ? ' (with npx: npx -p agentvfs -p @modelcontextprotocol/sdk agentvfs mcp …)' : '';
  process.stderr.write(`agentvfs: ${known ? (error as Error).message : String((error as Error)?.stack ?? error)}${npx}\n`);
  process.exit(1);
}

function isMissingPeer(error: unknown): boolean {
  return error instanceof Error && error.message.includes('which is not installed: npm install');
}

/** The version in the package.json of the installed package (the nearest one above this file named agentvfs). */
function packageVersion(): string {
  // Paths, not new URL(…, import.meta.url), which the build would take for an asset to inline.
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'agentvfs' && pkg.version) return pkg.version;
    } catch {
      // no package.json here: look one directory up
    }
  }
  return 'unknown';
}

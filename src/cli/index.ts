#!/usr/bin/env node
/**
 * The `agentvfs` command (Node only): `agentvfs mcp [--dir PATH | --snapshot FILE] [--save FILE]`.
 * Exit status: 0 done, 1 failed (the reason on stderr), 2 bad command line (with the usage).
 */
import { parseArgs, USAGE, UsageError } from './args.ts';
import { CliError } from './cli-error.ts';

try {
  const parsed = parseArgs(process.argv.slice(2));
  if (parsed.command === 'help') process.stdout.write(USAGE);
  // Loaded here, inside the try: without the MCP SDK, loading it fails with the npm install line.
  else await (await import('./serve-mcp.ts')).serveMcp(parsed);
} catch (error) {
  if (error instanceof UsageError) {
    process.stderr.write(`agentvfs: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  process.stderr.write(
    `agentvfs: ${error instanceof CliError || isMissingPeer(error) ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`,
  );
  process.exit(1);
}

function isMissingPeer(error: unknown): boolean {
  return error instanceof Error && error.message.includes('which is not installed: npm install');
}

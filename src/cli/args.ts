/** The command line of `agentvfs`: parsed into what to serve, or a usage error that says what is wrong. */
import { closestName } from '../option-names.ts';

export const USAGE = `Usage: agentvfs mcp [--dir PATH [--all] | --snapshot FILE] [--save FILE]

Serves an in-memory agentvfs workspace to an MCP client over stdio: the six file
tools ls, read_file, write_file, edit_file, glob and grep.

  --dir PATH        start with a copy of the files under PATH (PATH/a/b is /a/b);
                    nothing is ever written back to PATH; .git/ and node_modules/
                    are left out
  --all             with --dir: copy .git/ and node_modules/ too
  --snapshot FILE   start from a snapshot (backend.snapshot()) or a --save file
  --save FILE       keep the workspace in FILE: each change is saved there before
                    it is acknowledged (only what it changed). When FILE exists,
                    start from it: --dir and --snapshot fill only a new FILE
  -h, --help        show this help
  -v, --version     show the version of agentvfs
`;

export interface McpCommand {
  command: 'mcp';
  dir?: string;
  snapshot?: string;
  save?: string;
  /** --all: --dir copies .git/ and node_modules/ too. */
  all?: true;
}

export type Parsed = McpCommand | { command: 'help' } | { command: 'version' };

/** A mistake on the command line: the message says which, and the usage follows it. */
export class UsageError extends Error {
  override name = 'UsageError';
}

const FLAGS = { '--dir': 'dir', '--snapshot': 'snapshot', '--save': 'save' } as const;

export function parseArgs(argv: readonly string[]): Parsed {
  if (argv.some((a) => a === '-h' || a === '--help')) return { command: 'help' };
  // Alone, or after the command (the usage lists it under `agentvfs mcp`).
  const alone = argv[0] === 'mcp' ? argv.slice(1) : argv;
  if (alone.length === 1 && (alone[0] === '-v' || alone[0] === '--version')) return { command: 'version' };
  const [command, ...rest] = argv;
  if (command === undefined) throw new UsageError('missing command: agentvfs has one command, mcp.');
  if (command !== 'mcp') {
    // `agentvfs --dir x`: the command was left out, not misspelt.
    const instead = command.startsWith('-') ? ` (the options follow it: agentvfs mcp ${argv.join(' ')})` : '';
    throw new UsageError(`unknown command ${JSON.stringify(command)}: agentvfs has one command, mcp${instead}.`);
  }
  const parsed: McpCommand = { command: 'mcp' };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--all') {
      if (parsed.all) throw new UsageError('--all is given twice.');
      parsed.all = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq > 0 && arg.startsWith('--') ? arg.slice(0, eq) : arg;
    if (!Object.hasOwn(FLAGS, flag)) {
      const meant = closestName(flag, [...Object.keys(FLAGS), '--all', '--help', '--version']);
      throw new UsageError(`unknown option ${JSON.stringify(arg)}${meant ? ` (did you mean ${meant}?)` : ''}.`);
    }
    const key = FLAGS[flag as keyof typeof FLAGS];
    const value = eq > 0 && arg.startsWith('--') ? arg.slice(eq + 1) : rest[++i];
    if (value === undefined || value === '' || (value.startsWith('--') && eq < 0)) throw new UsageError(`${flag} needs a value.`);
    if (parsed[key] !== undefined) throw new UsageError(`${flag} is given twice.`);
    parsed[key] = value;
  }
  if (parsed.dir !== undefined && parsed.snapshot !== undefined) throw new UsageError('--dir and --snapshot both say what to start from: give one.');
  if (parsed.all && parsed.dir === undefined) throw new UsageError('--all goes with --dir (it copies .git/ and node_modules/ too).');
  return parsed;
}

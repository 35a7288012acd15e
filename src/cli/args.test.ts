import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from './args.ts';

describe('parseArgs', () => {
  it('reads the mcp command and its flags, as separate words or with =', () => {
    expect(parseArgs(['mcp'])).toEqual({ command: 'mcp' });
    expect(parseArgs(['mcp', '--dir', './repo', '--save', 'ws.snap'])).toEqual({ command: 'mcp', dir: './repo', save: 'ws.snap' });
    expect(parseArgs(['mcp', '--snapshot=a.snap', '--save=a.snap'])).toEqual({ command: 'mcp', snapshot: 'a.snap', save: 'a.snap' });
    expect(parseArgs(['mcp', '--dir', 'x', '-h'])).toEqual({ command: 'help' });
    expect(parseArgs(['--version'])).toEqual({ command: 'version' });
    expect(parseArgs(['-v'])).toEqual({ command: 'version' });
    // The usage lists -v under `agentvfs mcp`, as -h, so it works after the command too.
    expect(parseArgs(['mcp', '--version'])).toEqual({ command: 'version' });
    expect(parseArgs(['mcp', '-v'])).toEqual({ command: 'version' });
    expect(parseArgs(['mcp', '--all', '--dir', 'x'])).toEqual({ command: 'mcp', dir: 'x', all: true });
  });

  it.each([
    [[], 'missing command: agentvfs has one command, mcp.'],
    [['serve'], 'unknown command "serve": agentvfs has one command, mcp.'],
    [['mcp', '--verbose'], 'unknown option "--verbose".'],
    [['mcp', '--dri', 'x'], 'unknown option "--dri" (did you mean --dir?).'],
    [['mcp', '--snapshto=a'], 'unknown option "--snapshto=a" (did you mean --snapshot?).'],
    [['mcp', '--sav', 'f'], 'unknown option "--sav" (did you mean --save?).'],
    [['--dir', 'x'], 'unknown command "--dir": agentvfs has one command, mcp (the options follow it: agentvfs mcp --dir x).'],
    [['mcp', 'extra'], 'unknown option "extra".'],
    [['mcp', '--dir'], '--dir needs a value.'],
    [['mcp', '--dir', '--save', 'x'], '--dir needs a value.'],
    [['mcp', '--save='], '--save needs a value.'],
    [['mcp', '--save', 'a', '--save', 'b'], '--save is given twice.'],
    [['mcp', '--dir', 'a', '--snapshot', 'b'], '--dir and --snapshot both say what to start from: give one.'],
    [['mcp', '--all'], '--all goes with --dir (it copies .git/ and node_modules/ too).'],
    [['mcp', '--dir', 'a', '--all', '--all'], '--all is given twice.'],
  ])('refuses %j: %s', (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(new UsageError(message));
  });
});

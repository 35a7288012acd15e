/** The line a glob, grep or ls result ends with when ignore rules left something out: how many, and how to include them. */
import { counted } from '../counted.ts';

const WHY = 'ignored by .gitignore or the default .git/ and node_modules/ ignores';

export function globIgnoredNote(files: number): string {
  return `... [${counted(files, 'more matching file is', 'more matching files are')} ${WHY}; respect_git_ignore: false includes them]`;
}

export function grepIgnoredNote(files: number): string {
  return `... [${counted(files, 'file', 'files')} ${WHY} ${files === 1 ? 'was' : 'were'} not searched; respect_git_ignore: false searches them]`;
}

export function lsIgnoredNote(entries: number): string {
  return `... [${counted(entries, 'entry', 'entries')} ${WHY} not shown; respect_git_ignore: false lists them]`;
}

/** Two optional tail lines as one (joinCapped's tail), or null when neither. */
export function joinTails(...lines: readonly (string | null)[]): string | null {
  const present = lines.filter((line) => line !== null);
  return present.length === 0 ? null : present.join('\n');
}

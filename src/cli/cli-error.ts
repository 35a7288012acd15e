/** A failure the `agentvfs` command reports on stderr before exiting with status 1 (no stack: it says what to do). */
export class CliError extends Error {
  override name = 'CliError';
}

// Kept apart from the matcher so the tool definitions (also used by the worker client) do not pull in the regex engines.
/** One sentence for the tool description saying which regex syntax is accepted. */
export const REGEX_DIALECT_DESCRIPTION =
  "The pattern is an RE2 regular expression (the syntax of Go and ripgrep, close to JavaScript's), matched against one line at a time: character classes, \\d \\w \\s \\b (ASCII; \\p{L} is any letter), alternation, groups and (?:...), counted repetition {n,m}, ^ and $ at line start and end, and (?i) for case-insensitive; backreferences and lookaround are not supported.";

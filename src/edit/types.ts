/** Internal types shared by the edit algorithm and its correction strategies. */

export type CorrectionKind =
  | 'line-endings'
  | 'unescaped'
  | 'line-numbers'
  | 'unicode-punctuation'
  | 'unicode-normalization'
  | 'trailing-whitespace'
  | 'indentation';

/** One place to replace: `text[start, end)` becomes `replacement` (before line-ending conversion). */
export interface Region {
  start: number;
  end: number;
  replacement: string;
}

/** What a correction strategy found. `regions` is ascending by `start`. */
export interface CorrectionResult {
  correction: CorrectionKind;
  /** Sentence for EditOutcome.correctionNote when the correction is applied. */
  note: string;
  /** Phrase for an EAMBIGUOUS message, completing "old_string was not found exactly; …, it matches N places". */
  how: string;
  regions: Region[];
  /** old_string as this correction searched for it, when not as typed (unescaped). */
  searched?: string;
  /**
   * True when the corrected old_string is the same text as typed (only the line
   * breaks differ), so replace_all may apply it to several matches.
   */
  lossless: boolean;
}

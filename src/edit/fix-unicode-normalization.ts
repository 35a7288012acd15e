/**
 * Correction (f): Unicode normalization. "é" may be one code point (NFC) or
 * "e" plus a combining accent (NFD); a model almost always sends NFC, while
 * files written on macOS or by some tools hold NFD. old_string is converted to
 * the other form and searched literally; new_string is converted to the same
 * form, so the file keeps one normalization.
 */
import { findWithEolVariants } from './fix-line-endings.ts';
import { findAll } from './text-utils.ts';
import type { CorrectionResult, Region } from './types.ts';

const FORMS = ['NFC', 'NFD'] as const;

export function fixUnicodeNormalization(text: string, oldString: string, newString: string): CorrectionResult | null {
  for (const form of FORMS) {
    const variant = oldString.normalize(form);
    if (variant === oldString) continue;
    const replacement = newString.normalize(form);
    let regions: Region[] = findAll(text, variant).map((start) => ({ start, end: start + variant.length, replacement }));
    if (regions.length === 0) regions = findWithEolVariants(text, variant, replacement).regions;
    if (regions.length === 0) continue;
    return {
      correction: 'unicode-normalization',
      note: `Matched after converting old_string to Unicode ${form}, as the file is written; new_string was converted the same way.`,
      how: `after converting it to Unicode ${form}`,
      regions,
      searched: variant,
      lossless: false,
    };
  }
  return null;
}

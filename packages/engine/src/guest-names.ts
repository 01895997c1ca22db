/*
 * A guest's name as hotels write it on an invoice, reduced to a key that compares equal across the usual
 * spellings: the airline's PNR form "SMITH/JOHN MR" (also with the title glued on, "SMITH/JOHNMR"),
 * "Smith, John", "John Smith", "MR JOHN SMITH", "Jöhn Smith".
 */

/** Letters that do not decompose into a base letter and a mark. */
const FOLDS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/** Titles and honorifics, dropped wherever they stand. */
const TITLES = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'mstr',
  'dr',
  'prof',
  'capt',
  'captain',
  'sir',
  'dame',
  'madam',
  'madame',
  'mme',
  'mlle',
  'herr',
  'frau',
  'sr',
  'sra',
  'srta',
]);

/**
 * Titles a PNR name may carry glued to the given name ("SMITH/JOHNMR"). MS and DR are left out: too many given
 * names end in them (WILLIAMS, ALEXANDR).
 */
const GLUED_TITLES = ['mstr', 'miss', 'mrs', 'mr'];

/** Printable ASCII only: nothing to decompose or fold (most names an airline's crew system sends). */
const PLAIN = /^[\x20-\x7e]*$/;

function fold(s: string): string {
  if (PLAIN.test(s)) return s.toLowerCase();
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (c) => FOLDS[c] ?? c);
}

/** Apostrophes and hyphens join (GDS names drop them: O'BRIEN is OBRIEN); anything else that is not a letter separates. */
function words(s: string): string[] {
  return s
    .replace(/['’‘`-]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/**
 * The comparable key of a guest's name: accents folded, case and punctuation ignored, titles dropped, the words
 * in alphabetical order (so surname-first and given-name-first forms agree). Empty when nothing but titles is
 * left. A middle name written on one side only makes the keys differ.
 */
export function normaliseGuestName(name: string): string {
  const s = fold(name);
  const slash = s.indexOf('/');
  let given = slash >= 0 ? words(s.slice(slash + 1)) : [];
  const rest = words(slash >= 0 ? s.slice(0, slash) : s);
  if (given.length > 0) {
    const last = given[given.length - 1]!;
    const glued = GLUED_TITLES.find((t) => last.length > t.length + 1 && last.endsWith(t));
    if (glued) given = [...given.slice(0, -1), last.slice(0, -glued.length)];
  }
  return [...rest, ...given]
    .filter((w) => !TITLES.has(w))
    .sort()
    .join(' ');
}

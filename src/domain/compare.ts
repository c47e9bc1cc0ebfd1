/**
 * Orders two identifiers (market types, periods, sides, keys, file names) by code point, the same on
 * every machine. Not `localeCompare`: its first call loads ICU's collation data, about 3 MB of RSS
 * for the life of the process, to order ASCII words whose order needs no locale.
 */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A document that cannot be ingested: `path` points inside it, `reason` says what is wrong. */
export class FeedDocumentError extends Error {
  constructor(
    readonly document: string,
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${document}: ${path || '(document)'}: ${reason}`);
  }
}

/** A zod issue path as a reader writes it: `games[0].markets["68"].event.spread[1].side`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : /^[A-Za-z_]\w*$/.test(String(part)) ? `${i ? '.' : ''}${String(part)}` : `[${JSON.stringify(part)}]`))
    .join('');
}

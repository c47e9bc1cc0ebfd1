import fs from 'node:fs';
import path from 'node:path';
import { isAscii } from 'node:buffer';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import zlib from 'node:zlib';

/** One upstream document read from a file, a series line or standard input. */
export interface SourceDocument {
  /** Names the document in messages: file, or file:line for a series. */
  name: string;
  /** fetched_at of a recorded capture; null for a bare document (ingest time is used). */
  fetchedAt: Date | null;
  /** The parsed document, or the reason it could not be parsed. */
  body: unknown;
  /** The capture line's other fields (`source`, `sport_key`, `odds_format`, ...): what the format reads besides the body. */
  envelope?: Record<string, unknown>;
  error?: string;
}

const READ_CHUNK_BYTES = 1 << 20;

const FILE_PATTERN = /\.(json|jsonl|ndjson)(\.gz)?$/i;

/** A capture line `{fetched_at, source, body}` or a bare document. */
function unwrap(name: string, value: unknown): SourceDocument {
  if (value && typeof value === 'object' && 'body' in value && 'fetched_at' in value) {
    const { fetched_at, body, ...envelope } = value as { fetched_at: unknown; body: unknown };
    const at = typeof fetched_at === 'string' ? new Date(fetched_at) : null;
    if (!at || Number.isNaN(at.getTime())) return { name, fetchedAt: null, body: null, error: 'fetched_at: expected an ISO 8601 timestamp' };
    return { name, fetchedAt: at, body, envelope };
  }
  return { name, fetchedAt: null, body: value };
}

function parse(name: string, text: string): SourceDocument {
  try {
    return unwrap(name, JSON.parse(text));
  } catch (error) {
    return { name, fetchedAt: null, body: null, error: `not valid JSON (${(error as Error).message})` };
  }
}

/**
 * A file that could not be read to its end (a truncated or corrupt .gz, a read error). Documents
 * yielded before it stay valid: `lines` complete lines of a series were read (0 for a document file).
 */
export class DamagedFileError extends Error {
  constructor(
    readonly file: string,
    readonly lines: number,
    message: string,
  ) {
    super(message);
    this.name = 'DamagedFileError';
  }
}

/** The DamagedFileError of a read failure; zlib's "incorrect header check" means the file is not gzip. */
function damaged(file: string, lines: number, error: unknown): DamagedFileError {
  const { message, code } = error as { message?: string; code?: string };
  const reason = message ?? String(error);
  if (code === 'Z_DATA_ERROR' && lines === 0 && /header/.test(reason)) return new DamagedFileError(file, 0, `${file}: not a gzip file (${reason})`);
  return new DamagedFileError(file, lines, `${file}: ${lines > 0 ? `damaged after line ${lines}` : 'damaged'} (${reason})`);
}

/**
 * The lines of `stream`. A recorded series is ASCII throughout (JSON escapes the rest): such a chunk
 * becomes one string at once (latin1, nothing to validate), and each line is a slice of it, which
 * JSON.parse reads without a copy. Decoding each line (a whole scoreboard, ~200 kB) as UTF-8 cost a
 * copy into fresh memory per line and ~12 % more CPU than the parse alone (2026-01-24's series).
 * A chunk with other bytes is decoded as UTF-8, a character split between two chunks included.
 */
async function* readLines(name: string, stream: Readable): AsyncGenerator<SourceDocument> {
  let n = 0;
  const utf8 = new StringDecoder('utf8');
  /** The previous chunk went through `utf8`, which may hold the start of a character. */
  let decoding = false;
  /** The start of a line that the next chunk ends. */
  let carried = '';
  const line = (text: string): SourceDocument | undefined => {
    n++;
    const content = text.endsWith('\r') ? text.slice(0, -1) : text;
    return content.trim() ? parse(`${name}:${n}`, content) : undefined;
  };
  const chunks = (async function* () {
    try {
      for await (const chunk of stream) yield chunk as Buffer;
    } catch (error) {
      // Only the reading fails here: an error of the consumer ends the generator without passing by.
      throw damaged(name, n, error);
    }
  })();
  for await (const chunk of chunks) {
    const ascii = isAscii(chunk);
    const text = ascii && !decoding ? chunk.toString('latin1') : utf8.write(chunk);
    decoding = !ascii;
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      const piece = text.slice(start, end);
      const document = line(carried ? carried + piece : piece);
      carried = '';
      start = end + 1;
      if (document) yield document;
    }
    if (start < text.length) carried += text.slice(start);
  }
  carried += utf8.end();
  if (carried) {
    const document = line(carried);
    if (document) yield document;
  }
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Files under a folder (recursively) that look like feed documents, in name order. */
export function listFeedFiles(target: string): string[] {
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return [target];
  return fs
    .readdirSync(target, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && FILE_PATTERN.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/**
 * Reads documents from a .json document, a .jsonl series (gzip allowed), a folder of such files,
 * or `-` (standard input: one document, or one per line). Unparseable input yields a document with
 * `error` set, so that a series goes on with its next line.
 */
export async function* readSources(target: string, stdin: Readable = process.stdin): AsyncGenerator<SourceDocument> {
  if (target === '-') {
    const text = await readAll(stdin);
    const whole = parse('stdin', text);
    if (!whole.error) {
      yield whole;
      return;
    }
    let n = 0;
    for (const line of text.split('\n')) {
      n++;
      if (line.trim()) yield parse(`stdin:${n}`, line);
    }
    return;
  }
  for (const file of listFeedFiles(target)) {
    const gz = /\.gz$/i.test(file);
    // 1 MiB reads and inflate chunks: a recorded series is tens of MB, and zlib's default 16 KiB chunks
    // cost a callback each (measured: 75-120 ms of CPU to inflate the 24 MB 2026-01-24 series, 20-40 ms
    // with 1 MiB chunks).
    const open = () => {
      const read = fs.createReadStream(file, { highWaterMark: READ_CHUNK_BYTES });
      return gz ? read.pipe(zlib.createGunzip({ chunkSize: READ_CHUNK_BYTES })) : read;
    };
    if (/\.(jsonl|ndjson)(\.gz)?$/i.test(file)) yield* readLines(file, open());
    else yield parse(file, await readAll(open()).catch((error: unknown) => Promise.reject(damaged(file, 0, error))));
  }
}

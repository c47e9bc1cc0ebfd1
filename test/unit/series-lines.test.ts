import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { readSources, type SourceDocument } from '../../src/ingest/sources';
import { feedPath } from '../support/feeds';

// The series reader (src/ingest/sources.ts) turns ASCII chunks into text without decoding and reads
// each line as a slice of its chunk; other chunks are decoded as UTF-8. Whatever the path, a line must
// come out as the file holds it: split between two 1 MiB chunks, with a character of several bytes cut
// by the chunk boundary, after CRLF line ends, or last without a line end.

const CHUNK = 1 << 20;

let dir: string;
beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odds-lines-'))));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function read(name: string, content: string | Buffer): Promise<SourceDocument[]> {
  const file = path.join(dir, name);
  fs.writeFileSync(file, name.endsWith('.gz') ? zlib.gzipSync(content) : content);
  const out: SourceDocument[] = [];
  for await (const document of readSources(file)) out.push(document);
  return out;
}

/** A capture line whose body names `team`, padded with spaces to `length` bytes. */
function padded(length: number, team: string, at = '2026-01-24T18:00:00.000Z'): string {
  const bare = JSON.stringify({ fetched_at: at, body: { team } });
  return `${bare.slice(0, -1)}${' '.repeat(length - Buffer.byteLength(bare))}}`;
}

test('when the real series is read, then every line is its capture, in order, parsed as the file holds it', async () => {
  const text = zlib.gunzipSync(fs.readFileSync(feedPath('nba-2026-01-24.jsonl.gz'))).toString('utf8');
  const expected = text.trim().split('\n').map((line) => JSON.parse(line));
  const documents: SourceDocument[] = [];
  for await (const document of readSources(feedPath('nba-2026-01-24.jsonl.gz'))) documents.push(document);
  expect(documents).toHaveLength(expected.length);
  documents.forEach((document, i) => {
    expect(document.name).toBe(`${feedPath('nba-2026-01-24.jsonl.gz')}:${i + 1}`);
    expect(document.error).toBeUndefined();
    expect(document.fetchedAt?.toISOString()).toBe(new Date(expected[i].fetched_at).toISOString());
    expect(document.body).toEqual(expected[i].body);
  });
});

test('when a character of two bytes is cut by the chunk boundary, then its line still reads it whole', async () => {
  // "é" is 0xC3 0xA9: the first line is sized so that 0xC3 ends the first chunk.
  const team = 'Montréal';
  const first = padded(CHUNK + 200, team);
  const cut = CHUNK - Buffer.byteLength(first.slice(0, first.indexOf('é')));
  const line1 = `${' '.repeat(cut - 1)}${first}`; // leading spaces move "é" onto the boundary
  expect(Buffer.from(line1)[CHUNK - 1]).toBe(0xc3);
  const line2 = padded(300, 'Québec', '2026-01-24T18:05:00.000Z');
  const documents = await read('accents.jsonl.gz', `${line1}\n${line2}\n`);
  expect(documents.map((d) => d.body)).toEqual([{ team }, { team: 'Québec' }]);
  expect(documents.map((d) => d.name.replace(/.*:/, ''))).toEqual(['1', '2']);
});

test('when ASCII lines span chunks, end with CRLF, include blank lines and the last has no line end, then each is read once', async () => {
  const lines = [padded(CHUNK - 10, 'A'), padded(CHUNK * 2 + 7, 'B'), padded(100, 'C'), padded(CHUNK, 'D')];
  const content = `${lines[0]}\r\n\r\n${lines[1]}\n   \n${lines[2]}\r\n${lines[3]}`;
  const documents = await read('ascii.jsonl.gz', content);
  expect(documents.map((d) => d.body)).toEqual([{ team: 'A' }, { team: 'B' }, { team: 'C' }, { team: 'D' }]);
  // Line numbers count the blank lines too: they name the line of the file.
  expect(documents.map((d) => d.name.replace(/.*:/, ''))).toEqual(['1', '3', '5', '6']);
});

test('when a line is not JSON, then it alone is reported, under its line number, and the next lines are read', async () => {
  const documents = await read('broken.jsonl', `${padded(100, 'A')}\n{"broken": "é\n${padded(100, 'C')}\n`);
  expect(documents.map((d) => d.error === undefined)).toEqual([true, false, true]);
  expect(documents[1]!.name).toMatch(/broken\.jsonl:2$/);
  expect(documents[1]!.error).toMatch(/^not valid JSON/);
  expect(documents[2]!.body).toEqual({ team: 'C' });
});

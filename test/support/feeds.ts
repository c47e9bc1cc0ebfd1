import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { SourceDocument } from '../../src/ingest/sources';

export const FEEDS = path.join(__dirname, '..', 'fixtures', 'feeds');

/** Path of a fixture under test/fixtures/feeds. */
export const feedPath = (name: string) => path.join(FEEDS, name);

/** Parsed fixture document (a bare v2 scoreboard). */
export function readFeed(name: string): any {
  return JSON.parse(fs.readFileSync(feedPath(name), 'utf8'));
}

/** Lines of a recorded series fixture, parsed: [{fetched_at, source, body}]. */
export function readSeries(name: string): Array<{ fetched_at: string; source: string; body: any }> {
  return zlib
    .gunzipSync(fs.readFileSync(feedPath(name)))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
}

/** A document ready for ingestDocuments. */
export function doc(body: unknown, fetchedAt: string | null = null, name = 'test-document'): SourceDocument {
  return { name, fetchedAt: fetchedAt ? new Date(fetchedAt) : null, body };
}

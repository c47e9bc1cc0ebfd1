import { Parser } from '@asyncapi/parser';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { io as connect, type Socket } from 'socket.io-client';
import { ingestDocuments } from '../../src/ingest/ingest';
import { startTestApp, type TestApp } from '../support/app';
import { capture, waitFor, type GameSpec } from './live-helpers';

// /api/v1/asyncapi.json: served without a key, valid AsyncAPI 3.0 for @asyncapi/parser, and the
// events a real /live-odds client gets (snapshot, delta, acknowledgement, connect_error) match the
// payload schemas it declares.

const game = (home: number): GameSpec => ({
  id: 7101,
  status: 'inprogress',
  start: '2026-01-24T00:30:00.000Z',
  books: { 15: { spread: [home, -110, -110], moneyline: [-150, 130] }, 68: { total: [221.5, -110, -110] } },
});

let t: TestApp;
let key: string;
let doc: any;
const sockets: Socket[] = [];
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

beforeAll(async () => {
  t = await startTestApp();
  key = (await t.createKey('elite')).key;
  await ingestDocuments([capture('2026-01-24T01:00:00.000Z', game(-3))], { db: t.db, bus: t.bus });
  const res = await t.get('/api/v1/asyncapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});
afterAll(() => t.close());

// One parser: building its rule set is most of the cost of a parse.
const parser = new Parser();

/** Errors and warnings of @asyncapi/parser (its infos and hints, e.g. "a newer AsyncAPI exists", aside). */
async function problems(document: unknown): Promise<string[]> {
  const { diagnostics } = await parser.parse(JSON.stringify(document));
  return diagnostics.filter((d) => d.severity <= 1).map((d) => `${d.code}: ${d.message} (${d.path.join('.')})`);
}

function expectPayload(message: string, value: unknown) {
  const validate = ajv.compile(doc.components.messages[message].payload);
  if (!validate(value)) throw new Error(`${message}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(value).slice(0, 300)}`);
}

const open = (auth: Record<string, unknown>) => {
  const socket = connect(`${t.baseUrl}/live-odds`, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
  sockets.push(socket);
  return socket;
};

test('when the document is parsed by @asyncapi/parser, then it is AsyncAPI 3.0 with no error or warning', async () => {
  expect(doc.asyncapi).toBe('3.0.0');
  expect(await problems(doc)).toEqual([]);
  const { document } = await parser.parse(JSON.stringify(doc));
  expect(document!.channels().all().map((c) => c.address())).toEqual(['/live-odds']);
  expect(document!.messages().all().map((m) => m.name()).sort()).toEqual(
    [
      'acknowledgement',
      'connect_error',
      'live_odds',
      'odds_change',
      'resync',
      'subscribe',
      'subscribe acknowledgement',
      'unsubscribe',
      'subscribe_signals',
      'subscribe_signals acknowledgement',
      'unsubscribe_signals',
      'line_signal',
    ].sort(),
  );
  // The parser does find problems: an operation on a channel that does not exist.
  const broken = structuredClone(doc);
  broken.operations.subscribe.channel = { $ref: '#/channels/nowhere' };
  expect((await problems(broken)).length).toBeGreaterThan(0);
}, 120_000); // the parser's rule set is slow to build on a busy machine

test('when reading the payloads, then every property is described', () => {
  const undescribed: string[] = [];
  const walk = (node: unknown, at: string): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
    for (const [name, value] of Object.entries(node as Record<string, unknown>)) {
      if (name === 'examples') continue;
      if (name === 'properties') {
        for (const [property, schema] of Object.entries(value as Record<string, any>)) if (!schema.description) undescribed.push(`${at}/properties/${property}`);
      }
      walk(value, `${at}/${name}`);
    }
  };
  walk(doc.components.messages, '#/components/messages');
  expect(undescribed).toEqual([]);
});

test('when a client subscribes and an ingest moves a price, then the acknowledgement, the snapshot and the delta match their payloads', async () => {
  const socket = open({ apiKey: key });
  const snapshots: any[] = [];
  const changes: any[] = [];
  socket.on('live_odds', (p) => snapshots.push(p));
  socket.on('odds_change', (c) => changes.push(c));
  const ack = await new Promise<any>((resolve) => socket.on('connect', () => socket.emit('subscribe', { game_id: 7101 }, resolve)));
  expectPayload('subscribeAck', ack);
  await waitFor('the snapshot', () => snapshots.length > 0);
  expect(snapshots[0]).toMatchObject({ success: true, reason: 'snapshot', count: 1 });
  expectPayload('liveOdds', snapshots[0]);
  await ingestDocuments([capture('2026-01-24T01:01:00.000Z', game(-4.5))], { db: t.db, bus: t.bus });
  await waitFor('the delta', () => changes.length > 0);
  expect(changes[0].quotes.length).toBeGreaterThan(0);
  expectPayload('oddsChange', changes[0]);
  const done = await new Promise<any>((resolve) => socket.emit('unsubscribe', resolve));
  expectPayload('done', done);
});

test('when subscribe names an unknown field, then the refused acknowledgement and the failed live_odds match their payloads', async () => {
  const socket = open({ apiKey: key });
  const failures: any[] = [];
  socket.on('live_odds', (p) => p.success === false && failures.push(p));
  const ack = await new Promise<any>((resolve) => socket.on('connect', () => socket.emit('subscribe', { team_id: 1 }, resolve)));
  expect(ack.success).toBe(false);
  expectPayload('subscribeAck', ack);
  await waitFor('the failure push', () => failures.length > 0);
  expectPayload('liveOdds', failures[0]);
});

test('when the handshake has no key or a bad one, then connect_error matches its payload', async () => {
  for (const auth of [{}, { apiKey: 'sk_not_a_key' }]) {
    const error = await new Promise<any>((resolve) => open(auth).on('connect_error', resolve));
    expectPayload('connectError', { message: error.message, ...(error.data && { data: error.data }) });
    expect(error.data.status).toBe(401);
  }
});

test('when a client asks for signals and a steam signal is stored, then subscribe_signals, its acknowledgements and line_signal match their payloads', async () => {
  const socket = open({ apiKey: key });
  const signals: any[] = [];
  socket.on('line_signal', (s) => signals.push(s));
  const ack = await new Promise<any>((resolve) => socket.on('connect', () => socket.emit('subscribe_signals', { game_id: 7102, kind: 'steam' }, resolve)));
  expect(ack).toEqual({ success: true, filter: { game_id: [7102], kind: ['steam'] } });
  expectPayload('subscribeSignals', { game_id: 7102, kind: 'steam' });
  expectPayload('subscribeSignalsAck', ack);
  const refused = await socket.emitWithAck('subscribe_signals', { kind: 'whale' });
  expect(refused.success).toBe(false);
  expectPayload('subscribeSignalsAck', refused);
  // A game not started whose total three books take from 221.5 to 223 in one capture: steam.
  const pregame = (total: number): GameSpec => ({
    id: 7102,
    status: 'scheduled',
    start: '2026-01-25T00:30:00.000Z',
    books: { 68: { total: [total, -110, -110] }, 69: { total: [total, -110, -110] }, 79: { total: [total, -110, -110] } },
  });
  await ingestDocuments([capture('2026-01-24T01:02:00.000Z', pregame(221.5))], { db: t.db, bus: t.bus });
  await ingestDocuments([capture('2026-01-24T01:04:00.000Z', pregame(223))], { db: t.db, bus: t.bus });
  await waitFor('the steam signal', () => signals.length > 0);
  expect(signals[0]).toMatchObject({ kind: 'steam', game_id: 7102, market_type: 'total', data: { books: 3 } });
  expectPayload('lineSignal', signals[0]);
  expectPayload('done', await socket.emitWithAck('unsubscribe_signals'));
});

import { buildSchema, parse } from 'graphql';
import { rootFieldSchema } from '../../src/graphql/json-schema';

// JSON Schema of a GraphQL selection (the OpenAPI bodies and AsyncAPI payloads): types, nullability,
// enums, aliases, optional fields under @include, fragments, and the SDL descriptions carried over.

const schema = buildSchema(`
  "A side of a market."
  enum Side { home away }
  type Team {
    "Team id."
    id: Int!
    "Three-letter abbreviation."
    abbr: String
  }
  type Game {
    "Game id."
    gameId: Int!
    "When the game starts."
    startTime: DateTime
    "The side favoured."
    favourite: Side
    "Both teams."
    teams: [Team!]!
    score: Float
  }
  scalar DateTime
  type Query {
    "Games of a day."
    games: [Game!]!
  }
  type Subscription {
    "A game as it changes."
    gameChanged: Game
  }
`);

test('when a query selects fields with aliases, directives and fragments, then the schema follows the selection', () => {
  const document = parse(`
    query Q($withTeams: Boolean!) {
      games {
        game_id: gameId
        start_time: startTime
        favourite
        teams @include(if: $withTeams) { ...T }
        score
      }
    }
    fragment T on Team { id abbr }
  `);
  const games = rootFieldSchema(schema, document, 'games');
  expect(games.type).toBe('array');
  expect(games.description).toBe('Games of a day.');
  const game = games.items as any;
  expect(game.required).toEqual(['game_id', 'start_time', 'favourite', 'score']);
  expect(game.properties.game_id).toEqual({ type: 'integer', description: 'Game id.' });
  expect(game.properties.start_time).toEqual({ type: ['string', 'null'], format: 'date-time', description: 'When the game starts.' });
  expect(game.properties.favourite).toEqual({ type: ['string', 'null'], enum: ['home', 'away', null], description: 'The side favoured.' });
  expect(game.properties.teams.items.properties.abbr).toEqual({ type: ['string', 'null'], description: 'Three-letter abbreviation.' });
  // A field without a description in the SDL gets none here: descriptions are written in the SDL only.
  expect(game.properties.score).toEqual({ type: ['number', 'null'] });
});

test('when a subscription is described, then its root field comes from the Subscription type', () => {
  const changed = rootFieldSchema(schema, parse('subscription { change: gameChanged { gameId } }'), 'change');
  expect(changed).toEqual({
    type: ['object', 'null'],
    required: ['gameId'],
    properties: { gameId: { type: 'integer', description: 'Game id.' } },
    description: 'A game as it changes.',
  });
});

test('when the root field is not selected, then it says which is missing', () => {
  expect(() => rootFieldSchema(schema, parse('query Q { games { gameId } }'), 'nope')).toThrow('operation Q has no root field nope');
});

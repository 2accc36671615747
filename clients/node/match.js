#!/usr/bin/env node
// Plays one hosted match of any game the server plays, from the .proto files alone
// (hzai.v3): one seat is played here (the first legal move each time), every other seat
// by the server's bot; then checks the server's seed commitment.
//
//   node match.js [--server HOST:PORT] [--game NAME] [--seat NAME|INDEX] [--bot NAME]
//                 [--budget 1000|250ms|2s|1000,250ms] [--level N] [--timeout SECONDS]
//
// --level N: every bot seat plays at strength level N (1..GameInfo.max_level, with
// --bot ismcts; CreateMatchRequest.bot_levels).
//
// CreateMatch answers a secret token per human seat; every later call sends it as the
// metadata `authorization: Bearer TOKEN`. Prints every move as the seat saw it (with
// the server's narration), the result, and "commitment verified" when
// SHA-256("SEED:SALT") equals the commitment the match started with. Exit status: 0 done
// and verified, 2 bad input, 1 any other failure.
//
// A server serving TLS (docs/tls.md): --tls (its certificate checked against the system's
// CAs), --tls-ca FILE (a private CA), and --tls-cert FILE --tls-key FILE for mutual TLS.
'use strict';

const crypto = require('crypto');
const {
  loadV3, parseOptions, call, report, optional, seatIndex, TLS_OPTIONS, credentialsOf, budgetOf,
  CHANNEL_OPTIONS,
} = require('./hzai');

const PROGRAM = 'hzai-match';
const DEFAULTS = {
  ...TLS_OPTIONS,
  server: '127.0.0.1:50051', game: 'hera_zeus', seat: '0', bot: 'random', budget: '', iterations: 0, level: 0, timeout: 30,
};

function usage(message) {
  if (message) process.stderr.write(`${PROGRAM}: ${message}\n`);
  process.stderr.write('usage: node match.js [--server HOST:PORT] [--game NAME] [--seat NAME|INDEX] [--bot NAME] ' +
    '[--budget 1000|250ms|2s|1000,250ms] [--level N] [--timeout SECONDS] [--tls] [--tls-ca FILE] [--tls-cert FILE --tls-key FILE]\n');
  process.exit(2);
}

function capital(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function show(events, seat, seats) {
  // Each move as this seat saw it (hidden cards are '?'), then what it did in words.
  for (const event of events) {
    const mover = optional(event, 'seat');
    const who = mover === undefined ? 'chance' : mover === seat ? 'you' : capital(seats[mover] || `seat ${mover}`);
    process.stdout.write(`${event.index}: ${who}: ${event.move.text}\n`);
    for (const line of event.narration) process.stdout.write(`    ${line}\n`);
  }
}

async function play(bots, matches, args) {
  const listed = await call(bots, 'ListGames', {}, null, args.timeout);
  const game = listed.games.find((g) => g.name === args.game);
  if (!game) {
    usage(`this server plays no game ${JSON.stringify(args.game)} (it plays ${listed.games.map((g) => g.name).join(', ')})`);
  }
  let seat;
  try {
    seat = seatIndex(game.seats, args.seat);
  } catch (err) {
    usage(err.message);
  }
  const botSeats = game.seats.map((_, i) => i).filter((i) => i !== seat);
  const created = await call(matches, 'CreateMatch', {
    game: game.name,
    bot_seats: botSeats,
    bot_levels: args.level ? botSeats.map(() => args.level) : [],
    bot: args.bot,
    budget: budgetOf(args, usage),
  }, null, args.timeout);
  const matchId = created.status.match_id;
  const commitment = created.status.seed_commitment;
  const token = created.seats.find((s) => s.seat === seat).token;
  let status = created.status;
  for (let calls = 0; !status.over; calls++) {
    if (calls > 5000) throw new Error('the game did not end');
    let reply;
    if (optional(status, 'to_move') === seat) {
      const legal = await call(matches, 'ListLegalMoves', { match_id: matchId }, token, args.timeout);
      reply = await call(matches, 'PlayMove', {
        match_id: matchId, move: { text: legal.moves[0].text }, move_number: status.moves_played,
      }, token, args.timeout);
    } else {
      reply = await call(matches, 'BotPlayTurn', { match_id: matchId, move_number: status.moves_played },
        token, args.timeout);
    }
    show(reply.events, seat, status.seats);
    status = reply.status;
  }
  const reason = status.reason ? ` (${status.reason})` : '';
  process.stdout.write(`over: ${status.result}${reason} after ${status.moves_played} moves\n`);
  const opened = crypto.createHash('sha256').update(`${status.seed}:${status.salt}`).digest('hex');
  if (opened !== commitment || status.seed_commitment !== commitment) {
    process.stderr.write(`${PROGRAM}: the seed ${status.seed} and salt do not open the commitment ${commitment}\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write(`commitment verified: sha256("${status.seed}:${status.salt}") = ${commitment}\n`);
  }
  await call(matches, 'DeleteMatch', { match_id: matchId }, token, args.timeout);
}

async function main() {
  const { args, rest } = parseOptions(process.argv.slice(2), DEFAULTS, ['tls'], usage);
  if (rest.length) usage(`unexpected ${JSON.stringify(rest[0])}`);
  const v3 = loadV3();
  const credentials = credentialsOf(args, usage);
  const bots = new v3.BotService(args.server, credentials, CHANNEL_OPTIONS);
  const matches = new v3.MatchService(args.server, credentials, CHANNEL_OPTIONS);
  try {
    await play(bots, matches, args);
  } catch (err) {
    report(PROGRAM, err);
  } finally {
    bots.close();
    matches.close();
  }
}

main();

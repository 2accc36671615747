#!/usr/bin/env node
// Plays one hosted match against the bot from the .proto files alone: Hera is played
// here (the first legal move each time), Zeus by the server's bot; then checks the
// server's seed commitment.
//
//   node match.js [--server HOST:PORT] [--bot NAME] [--iterations N] [--timeout SECONDS]
//
// CreateMatch answers a secret token per human seat; every later call sends it as the
// metadata `authorization: Bearer TOKEN`. Prints every move as Hera saw it, the result,
// and "commitment verified" when SHA-256("SEED:SALT") equals the commitment the match
// started with. Exit status: 0 done and verified, 2 bad input, 1 any other failure.
'use strict';

const crypto = require('crypto');
const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const PROTO_ROOT = path.resolve(__dirname, '..', '..', 'proto');

function usage(message) {
  if (message) process.stderr.write(`hzai-match: ${message}\n`);
  process.stderr.write('usage: node match.js [--server HOST:PORT] [--bot NAME] [--iterations N] [--timeout SECONDS]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const args = { server: '127.0.0.1:50051', bot: 'random', iterations: 0, timeout: 30 };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, '');
    if (!argv[i].startsWith('--') || !(name in args)) usage(`unknown option ${argv[i]}`);
    const value = argv[++i];
    if (value === undefined) usage(`--${name} needs a value`);
    if (typeof args[name] === 'number') {
      const n = Number(value);
      if (!Number.isFinite(n) || n < 0) usage(`--${name} needs a number ≥ 0, not ${JSON.stringify(value)}`);
      args[name] = n;
    } else {
      args[name] = value;
    }
  }
  return args;
}

function loadService() {
  const definition = protoLoader.loadSync('hzai/v1/match.proto', {
    includeDirs: [PROTO_ROOT], keepCase: true, longs: String, enums: String, defaults: true, oneofs: true,
  });
  return grpc.loadPackageDefinition(definition).hzai.v1.MatchService;
}

function bearer(token) {
  const metadata = new grpc.Metadata();
  metadata.set('authorization', `Bearer ${token}`);
  return metadata;
}

function caller(client, timeout) {
  // call('PlayMove', request, token) -> Promise of the reply
  return (method, request, token) => new Promise((resolve, reject) => {
    const deadline = new Date(Date.now() + timeout * 1000);
    const metadata = token ? bearer(token) : new grpc.Metadata();
    client[method](request, metadata, { deadline }, (err, reply) => (err ? reject(err) : resolve(reply)));
  });
}

const SEATS = { PLAYER_HERA: 'Hera', PLAYER_ZEUS: 'Zeus' };

function show(events, seat) {
  // Each move as this seat saw it (hidden cards are '?'), then what it did in words.
  for (const event of events) {
    const who = event.player === seat ? 'you' : (SEATS[event.player] || 'chance');
    process.stdout.write(`${event.index}: ${who}: ${event.move.text}\n`);
    for (const line of event.narration) process.stdout.write(`    ${line}\n`);
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const MatchService = loadService();
  const client = new MatchService(args.server, grpc.credentials.createInsecure());
  const call = caller(client, args.timeout);
  try {
    const created = await call('CreateMatch', {
      zeus_bot: true, bot: args.bot, budget: args.iterations ? { iterations: String(args.iterations) } : null,
    });
    const matchId = created.status.match_id;
    const commitment = created.status.seed_commitment;
    const hera = created.seats.find((s) => s.player === 'PLAYER_HERA').token;
    let status = created.status;
    for (let calls = 0; !status.over; calls++) {
      if (calls > 2000) throw new Error('the game did not end');
      if (status.to_move === 'PLAYER_HERA') {
        const legal = await call('ListLegalMoves', { match_id: matchId }, hera);
        const reply = await call('PlayMove', {
          match_id: matchId, move: { text: legal.moves[0].text }, move_number: status.moves_played,
        }, hera);
        show(reply.events, 'PLAYER_HERA');
        status = reply.status;
      } else {
        const reply = await call('BotPlayTurn', { match_id: matchId }, hera);
        show(reply.events, 'PLAYER_HERA');
        status = reply.status;
      }
    }
    process.stdout.write(`over: ${status.winner} (${status.reason}) after ${status.moves_played} moves\n`);
    const opened = crypto.createHash('sha256').update(`${status.seed}:${status.salt}`).digest('hex');
    if (opened !== commitment || status.seed_commitment !== commitment) {
      process.stderr.write(`hzai-match: the seed ${status.seed} and salt do not open the commitment ${commitment}\n`);
      process.exitCode = 1;
    } else {
      process.stdout.write(`commitment verified: sha256("${status.seed}:${status.salt}") = ${commitment}\n`);
    }
    await call('DeleteMatch', { match_id: matchId }, hera);
  } catch (err) {
    process.stderr.write(`hzai-match: ${err.code !== undefined ? grpc.status[err.code] + ': ' + err.details : err.message}\n`);
    process.exitCode = err.code === grpc.status.INVALID_ARGUMENT ? 2 : 1;
  } finally {
    client.close();
  }
}

main();

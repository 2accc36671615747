#!/usr/bin/env node
// Asks an hzai server for a move, built from the .proto files alone (hzai.v3): any
// language with a gRPC library can do the same.
//
//   node suggest.js RECORD.json [--server HOST:PORT] [--game NAME] [--bot NAME]
//                   [--budget 1000|250ms|2s|1000,250ms] [--seed N] [--level N] [--timeout SECONDS] [--json]
//   node suggest.js --match MATCH_ID --token TOKEN [...]   a hosted match, for the seat
//                   of TOKEN (sent as `authorization: Bearer TOKEN`)
//
// Without --game the game is the one whose record format (GameInfo.record_format, from
// ListGames) is the record's `format`. --level N asks for strength level N of the
// ismcts bot (1..GameInfo.max_level, the top one full strength; 0, the default, full
// strength). Prints the move's text (or the whole reply with
// --json). Exit status: 0 done, 2 bad input (INVALID_ARGUMENT and the like), 1 any
// other failure.
//
// A server serving TLS (docs/tls.md): --tls (its certificate checked against the system's
// CAs), --tls-ca FILE (a private CA), and --tls-cert FILE --tls-key FILE for mutual TLS.
'use strict';

const {
  loadV3, parseOptions, call, report, readRecord, positionOf, TLS_OPTIONS, credentialsOf, budgetOf,
  CHANNEL_OPTIONS,
} = require('./hzai');

const PROGRAM = 'hzai-suggest';
const DEFAULTS = {
  ...TLS_OPTIONS,
  server: '127.0.0.1:50051', game: '', bot: '', budget: '', iterations: 0, millis: 0, seed: 0, level: 0, timeout: 30, match: '',
  token: '', json: false,
};

function usage(message) {
  if (message) process.stderr.write(`${PROGRAM}: ${message}\n`);
  process.stderr.write('usage: node suggest.js RECORD.json|--match ID --token TOKEN [--server HOST:PORT] ' +
    '[--tls] [--tls-ca FILE] [--tls-cert FILE --tls-key FILE] ' +
    '[--game NAME] [--bot NAME] [--budget 1000|250ms|2s|1000,250ms] [--seed N] [--level N] [--timeout SECONDS] [--json]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const { args, rest } = parseOptions(argv, DEFAULTS, ['json', 'tls'], usage);
  if (args.match) {
    if (rest.length !== 0) usage('give a record file or --match, not both');
    if (!args.token) usage('--match needs --token (the seat token CreateMatch answered)');
  } else if (rest.length !== 1) {
    usage('give one record file');
  } else {
    args.record = rest[0];
  }
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const recordText = readRecord(args, usage);
  const v3 = loadV3();
  const credentials = credentialsOf(args, usage);
  const bots = new v3.BotService(args.server, credentials, CHANNEL_OPTIONS);
  try {
    const position = await positionOf(bots, args, recordText);
    const reply = await call(bots, 'SuggestMove', {
      position,
      budget: budgetOf(args, usage),
      seed: String(args.seed),
      bot: args.bot,
      level: args.level,
    }, args.token, args.timeout);
    process.stdout.write(args.json ? `${JSON.stringify(reply)}\n` : `${reply.move.text}\n`);
  } catch (err) {
    report(PROGRAM, err);
    if (err.usage) process.exitCode = 2;
  } finally {
    bots.close();
  }
}

main();

#!/usr/bin/env node
// Reviews every decision of a game record on an hzai server (BotService.AnalyzeGame,
// hzai.v3), printing each row as soon as the server sends it: the move played against
// the bot's best, both values with their 95% intervals, the value lost and its mark.
//
//   node analyze_game.js RECORD.json [--server HOST:PORT] [--game NAME] [--seat NAME|INDEX]
//                        [--budget 1000|250ms|2s|1000,250ms] [--seed N] [--belief] [--timeout SECONDS] [--json]
//   node analyze_game.js --match MATCH_ID --token TOKEN [...]   a hosted match: that seat's
//                        decisions only, from its own view
//
// The decision at move index i is analysed with seed + i, so each row equals Analyze of
// that prefix with that seed. A deadline (--timeout) ends the review with the rows done
// (the summary says so). Exit status: 0 done, 2 bad input, 1 any other failure.
//
// A server serving TLS (docs/tls.md): --tls (its certificate checked against the system's
// CAs), --tls-ca FILE (a private CA), and --tls-cert FILE --tls-key FILE for mutual TLS.
'use strict';

const {
  loadV3, parseOptions, call, stream, report, optional, seatIndex, readRecord, positionOf, TLS_OPTIONS, credentialsOf, budgetOf,
  CHANNEL_OPTIONS,
} = require('./hzai');

const PROGRAM = 'hzai-analyze-game';
const DEFAULTS = {
  ...TLS_OPTIONS,
  server: '127.0.0.1:50051', game: '', seat: '', budget: '', iterations: 0, millis: 0, seed: 0, timeout: 600, match: '',
  token: '', belief: false, json: false,
};

function usage(message) {
  if (message) process.stderr.write(`${PROGRAM}: ${message}\n`);
  process.stderr.write('usage: node analyze_game.js RECORD.json|--match ID --token TOKEN [--server HOST:PORT] ' +
    '[--tls] [--tls-ca FILE] [--tls-cert FILE --tls-key FILE] ' +
    '[--game NAME] [--seat NAME|INDEX] [--budget 1000|250ms|2s|1000,250ms] [--seed N] [--belief] [--timeout SECONDS] ' +
    '[--json]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const { args, rest } = parseOptions(argv, DEFAULTS, ['json', 'belief', 'tls'], usage);
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

const number = (x) => (x === undefined ? '     -' : x.toFixed(3).padStart(6));

function row(d) {
  const played = optional(d, 'played_value');
  const loss = optional(d, 'loss');
  return `${String(d.index).padStart(4)}  ${d.seat_name.padEnd(6)} ${d.played.text.padEnd(30)} ${number(played)}  ` +
    `${d.best.text.padEnd(30)} ${number(d.best_value)}  ${number(loss)} ${d.mark}`;
}

// A reader that stops early (`| head`) ends the review; it is not an error.
process.stdout.on('error', (err) => { if (err.code === 'EPIPE') process.exit(0); throw err; });

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const recordText = readRecord(args, usage);
  const v3 = loadV3();
  const credentials = credentialsOf(args, usage);
  const bots = new v3.BotService(args.server, credentials, CHANNEL_OPTIONS);
  try {
    const position = await positionOf(bots, args, recordText);
    const seats = [];
    if (args.seat !== '') {
      const listed = await call(bots, 'ListGames', {}, null, args.timeout);
      const info = listed.games.find((g) => g.name === (position.game || 'hera_zeus'));
      try {
        seats.push(seatIndex(info ? info.seats : [], args.seat));
      } catch (err) {
        throw Object.assign(err, { usage: true });
      }
    }
    const request = {
      position, seats, belief: args.belief, seed: String(args.seed),
      budget: budgetOf(args, usage),
    };
    if (!args.json) {
      process.stdout.write(`${'#'.padStart(4)}  ${'player'.padEnd(6)} ${'played'.padEnd(30)} ${'value'.padStart(6)}  ` +
        `${'bot'.padEnd(30)} ${'value'.padStart(6)}  ${'lost'.padStart(6)}\n`);
    }
    await stream(bots, 'AnalyzeGame', request, args.token, args.timeout, (reply) => {
      if (args.json) {
        process.stdout.write(`${JSON.stringify(reply)}\n`);
      } else if (reply.item === 'decision') {
        process.stdout.write(`${row(reply.decision)}\n`);
      } else {
        const s = reply.summary;
        process.stdout.write(`${s.decisions} of ${s.total} decisions analysed` +
          `${s.complete ? '' : ` (stopped: ${s.stopped})`}\n`);
      }
    });
  } catch (err) {
    report(PROGRAM, err);
    if (err.usage) process.exitCode = 2;
  } finally {
    bots.close();
  }
}

main();

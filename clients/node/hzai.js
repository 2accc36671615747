// What suggest.js and match.js share: loading hzai.v3 from the .proto files, options on
// the command line, bearer-token metadata, promise-returning calls and one-line errors.
'use strict';

const path = require('path');
const fs = require('fs');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const PROTO_ROOT = path.resolve(__dirname, '..', '..', 'proto');
const LOADER_OPTIONS = {
  includeDirs: [PROTO_ROOT], keepCase: true, longs: String, enums: String, defaults: true, oneofs: true,
};

// Channel options every script gives its clients: a gRPC retry policy for the calls safe to
// repeat, tried again (up to 5 times in all) when they end UNAVAILABLE because the server
// process that had them died or closed its connection (hzai-server --max-connection-age),
// as the Python client does. PlayMove, BotPlayTurn, CreateMatch and DeleteMatch are not.
const RETRIED = {
  'hzai.v3.BotService': ['ListGames', 'SuggestMove', 'Analyze', 'AnalyzeStream', 'AnalyzeGame'],
  'hzai.v3.MatchService': ['GetView', 'ListLegalMoves'],
};
const CHANNEL_OPTIONS = {
  'grpc.service_config': JSON.stringify({
    methodConfig: [{
      name: Object.entries(RETRIED).flatMap(([service, methods]) => methods.map((method) => ({ service, method }))),
      retryPolicy: {
        maxAttempts: 5, initialBackoff: '0.1s', maxBackoff: '1s', backoffMultiplier: 2,
        retryableStatusCodes: ['UNAVAILABLE'],
      },
    }],
  }),
};

// The v3 package, with BotService and MatchService (both files share common.proto).
function loadV3() {
  const definition = protoLoader.loadSync(['hzai/v3/bot.proto', 'hzai/v3/match.proto'], LOADER_OPTIONS);
  return grpc.loadPackageDefinition(definition).hzai.v3;
}

// Reads `--name value` options into a copy of `defaults` (numbers stay numbers, `flags`
// take no value); the remaining words are answered as `rest`.
function parseOptions(argv, defaults, flags, fail) {
  const args = { ...defaults };
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (!word.startsWith('--')) { rest.push(word); continue; }
    const name = word.slice(2);
    if (flags.includes(name)) { args[name] = true; continue; }
    if (!(name in defaults) || flags.includes(name)) fail(`unknown option ${word}`);
    const value = argv[++i];
    if (value === undefined) fail(`${word} needs a value`);
    if (typeof defaults[name] === 'number') {
      const n = Number(value);
      if (!Number.isFinite(n) || n < 0) fail(`${word} needs a number ≥ 0, not ${JSON.stringify(value)}`);
      args[name] = n;
    } else {
      args[name] = value;
    }
  }
  return { args, rest };
}

// The options every script takes for a server that serves TLS (docs/tls.md): --tls
// (checked against the system's CAs), --tls-ca FILE, and --tls-cert/--tls-key for
// mutual TLS. Add TLS_OPTIONS to a script's defaults and 'tls' to its flags.
const TLS_OPTIONS = { tls: false, 'tls-ca': '', 'tls-cert': '', 'tls-key': '' };

// The channel credentials the TLS options ask for (plain text without them).
function credentialsOf(args, fail) {
  if (!args.tls && !args['tls-ca'] && !args['tls-cert']) return grpc.credentials.createInsecure();
  if (Boolean(args['tls-cert']) !== Boolean(args['tls-key'])) {
    fail('a client certificate needs its key: give both --tls-cert and --tls-key, or neither');
  }
  const read = (file, flag) => {
    if (!file) return null;
    try {
      return fs.readFileSync(file);
    } catch (err) {
      return fail(`${flag}: cannot read ${file} (${err.code})`);
    }
  };
  return grpc.credentials.createSsl(read(args['tls-ca'], '--tls-ca'), read(args['tls-key'], '--tls-key'),
    read(args['tls-cert'], '--tls-cert'));
}

function bearer(token) {
  const metadata = new grpc.Metadata();
  if (token) metadata.set('authorization', `Bearer ${token}`);
  return metadata;
}

// call(client, 'PlayMove', request, token, seconds) -> a Promise of the reply.
function call(client, method, request, token, seconds) {
  return new Promise((resolve, reject) => {
    const deadline = new Date(Date.now() + seconds * 1000);
    client[method](request, bearer(token), { deadline }, (err, reply) => (err ? reject(err) : resolve(reply)));
  });
}

// The status line of a failed call, and the exit status: 2 when the request was wrong.
function report(program, err) {
  const grpcError = err && err.code !== undefined && grpc.status[err.code] !== undefined;
  process.stderr.write(`${program}: ${grpcError ? `${grpc.status[err.code]}: ${err.details}` : err.message}\n`);
  const bad = [grpc.status.INVALID_ARGUMENT, grpc.status.NOT_FOUND, grpc.status.FAILED_PRECONDITION];
  process.exitCode = grpcError && bad.includes(err.code) ? 2 : 1;
}

// An optional (proto3 `optional`) field read with proto-loader's `oneofs`: the value,
// or undefined when the message leaves it unset.
function optional(message, field) {
  return message[`_${field}`] === field ? message[field] : undefined;
}

// A seat given by name or index, as an index into `seats` (GameInfo.seats).
function seatIndex(seats, given) {
  const byName = seats.indexOf(String(given).toLowerCase());
  if (byName >= 0) return byName;
  const n = Number(given);
  if (Number.isInteger(n) && n >= 0 && n < seats.length) return n;
  throw new Error(`no seat ${JSON.stringify(given)}: the seats are ${seats.map((s, i) => `${i} ${s}`).join(', ')}`);
}

// The text of --record (null with --match); a file that cannot be read goes to `usage`.
function readRecord(args, usage) {
  if (args.match) return null;
  try {
    return fs.readFileSync(args.record, 'utf8');
  } catch (err) {
    return usage(`cannot read ${args.record}: ${err.message}`);
  }
}

// The Position of a request: the hosted match of --match, or the record with its game.
async function positionOf(bots, args, recordText) {
  return args.match
    ? { game: args.game, match_id: args.match }
    : { game: await gameOf(bots, args, recordText), record_json: recordText };
}

// The game a record belongs to: --game, else the listed game whose records have its format.
async function gameOf(bots, args, recordText) {
  if (args.game) return args.game;
  let format;
  try {
    format = JSON.parse(recordText).format;
  } catch (err) {
    return ''; // the server names what is wrong with the record
  }
  const listed = await call(bots, 'ListGames', {}, null, args.timeout);
  const game = listed.games.find((g) => g.record_format === format);
  if (!game) {
    const known = listed.games.map((g) => `${g.name} (${g.record_format})`).join(', ');
    throw Object.assign(new Error(`no game of this server writes records of format ${JSON.stringify(format)}; ` +
      `give --game (the server plays ${known})`), { usage: true });
  }
  return game.name;
}

// stream(client, 'AnalyzeGame', request, token, seconds, onMessage) -> a Promise resolved at the
// stream's end (rejected with its error); onMessage gets every message as it comes.
function stream(client, method, request, token, seconds, onMessage) {
  return new Promise((resolve, reject) => {
    const deadline = new Date(Date.now() + seconds * 1000);
    const reader = client[method](request, bearer(token), { deadline });
    reader.on('data', onMessage);
    reader.on('error', reject);
    reader.on('end', resolve);
  });
}

// The search budget a script asks for: `--budget` in the forms every hzai command takes
// (1000 iterations, 250ms, 2s, or both as 1000,250ms), else the older --iterations and
// --millis; null when none is given (the server's default). `fail` gets a message naming
// the flag.
const MAX_MILLIS = 4294967295;

function budgetOf(args, fail) {
  const given = args.budget === undefined ? '' : String(args.budget).trim();
  if (given === '') {
    if (!args.iterations && !args.millis) return null;
    return { iterations: String(args.iterations || 0), millis: args.millis || 0, threads: 0 };
  }
  if (args.iterations || args.millis) fail('--budget and --iterations/--millis say the same thing: give one');
  let iterations = 0;
  let millis = 0;
  for (const part of given.split(',')) {
    const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(part.trim());
    if (!m) fail(`--budget: ${JSON.stringify(given)} is not 1000, 250ms, 2s or 1000,250ms`);
    if (m[2] === undefined) {
      if (iterations || !/^\d+$/.test(m[1]) || Number(m[1]) < 1) {
        fail(`--budget: ${JSON.stringify(given)}: one whole number of iterations, 1 or more`);
      }
      iterations = Number(m[1]);
    } else {
      if (millis) fail(`--budget: ${JSON.stringify(given)}: one time limit`);
      millis = m[2] === 's' ? Number(m[1]) * 1000 : Number(m[1]);
      // Budget.millis is a uint32 of whole milliseconds: nothing the wire would round or wrap
      if (!Number.isInteger(millis) || millis < 1 || millis > MAX_MILLIS) {
        fail(`--budget: ${JSON.stringify(given)}: a time in whole milliseconds, 1ms to ${MAX_MILLIS}ms`);
      }
    }
  }
  if (iterations > Number.MAX_SAFE_INTEGER) fail(`--budget: ${JSON.stringify(given)}: too many iterations`);
  if (!iterations && !millis) fail(`--budget: ${JSON.stringify(given)}: more than nothing`);
  return { iterations: String(iterations), millis, threads: 0 };
}

module.exports = {
  grpc, loadV3, parseOptions, call, stream, report, optional, seatIndex, gameOf, readRecord, positionOf, TLS_OPTIONS,
  credentialsOf, budgetOf, CHANNEL_OPTIONS,
};

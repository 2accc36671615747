#!/usr/bin/env node
// Asks an hzai server for a move, built from the .proto files alone: any language with
// a gRPC library can do the same.
//
//   node suggest.js RECORD.json [--server HOST:PORT] [--bot NAME] [--iterations N]
//                               [--millis N] [--seed N] [--timeout SECONDS] [--json]
//   node suggest.js --match MATCH_ID --token TOKEN [...]   a hosted match, for the seat
//                               of TOKEN (sent as `authorization: Bearer TOKEN`)
//
// Prints the move's notation (or the whole reply with --json). Exit status: 0 done,
// 2 bad input (the server said INVALID_ARGUMENT), 1 any other failure.
'use strict';

const fs = require('fs');
const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const PROTO_ROOT = path.resolve(__dirname, '..', '..', 'proto');

function usage(message) {
  if (message) process.stderr.write(`hzai-suggest: ${message}\n`);
  process.stderr.write('usage: node suggest.js RECORD.json|--match ID --token TOKEN [--server HOST:PORT] ' +
    '[--bot NAME] [--iterations N] [--millis N] [--seed N] [--timeout SECONDS] [--json]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const args = {
    server: '127.0.0.1:50051', bot: '', iterations: 0, millis: 0, seed: 0, timeout: 30, json: false, match: '', token: '',
  };
  const numbers = new Set(['iterations', 'millis', 'seed', 'timeout']);
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (word === '--json') { args.json = true; continue; }
    if (word.startsWith('--')) {
      const name = word.slice(2);
      if (!(name in args)) usage(`unknown option ${word}`);
      const value = argv[++i];
      if (value === undefined) usage(`${word} needs a value`);
      if (numbers.has(name)) {
        const n = Number(value);
        if (!Number.isFinite(n) || n < 0) usage(`${word} needs a number ≥ 0, not ${JSON.stringify(value)}`);
        args[name] = n;
      } else {
        args[name] = value;
      }
      continue;
    }
    rest.push(word);
  }
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

function loadService() {
  const definition = protoLoader.loadSync('hzai/v1/bot.proto', {
    includeDirs: [PROTO_ROOT],
    keepCase: true,
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  return grpc.loadPackageDefinition(definition).hzai.v1.BotService;
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  let position;
  if (args.match) {
    position = { match_id: args.match };
  } else {
    try {
      position = { record_json: fs.readFileSync(args.record, 'utf8') };
    } catch (err) {
      usage(`cannot read ${args.record}: ${err.message}`);
    }
  }
  const BotService = loadService();
  const client = new BotService(args.server, grpc.credentials.createInsecure());
  const request = {
    position,
    budget: { iterations: String(args.iterations), millis: args.millis, threads: 0 },
    seed: String(args.seed),
    bot: args.bot,
  };
  const deadline = new Date(Date.now() + args.timeout * 1000);
  const metadata = new grpc.Metadata();
  if (args.token) metadata.set('authorization', `Bearer ${args.token}`);
  client.SuggestMove(request, metadata, { deadline }, (err, reply) => {
    client.close();
    if (err) {
      process.stderr.write(`hzai-suggest: ${grpc.status[err.code]}: ${err.details}\n`);
      process.exitCode = err.code === grpc.status.INVALID_ARGUMENT ? 2 : 1;
      return;
    }
    process.stdout.write(args.json ? JSON.stringify(reply) + '\n' : reply.move.text + '\n');
  });
}

main();

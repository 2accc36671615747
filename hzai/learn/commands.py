"""The bodies of the learning commands (`hzai selfplay`, `train`, `train-cards`,
`combine`, `match`): each turns its parsed options into the learning module's call and
prints the result as one JSON line. Their parser is hzai.learn.cli, which names these
functions for hzai.lazy, so numpy and the learning modules load only when one runs."""

from __future__ import annotations

import json
import os
import time

from hzai.cli_options import JSON_STDOUT, write_json_option
from hzai.learn.cards import add_card_net
from hzai.learn.combine import combine
from hzai.learn.match import match
from hzai.learn.selfplay import SelfplayConfig, bar, run
from hzai.learn.train import TrainConfig, train_model
from hzai.native.model import model_path


def _threads(value: int | None) -> int:
    return max(1, value if value else (os.cpu_count() or 1))


def cmd_selfplay(args) -> int:
    config = SelfplayConfig(args.game, args.games, args.budget, args.seed, None, args.explore, args.temperature,
                            args.shard, args.cpuct, args.pool, args.params or "", full_share=args.full_share,
                            fast_budget=args.fast_budget, keep=args.keep, fast_temperature=args.fast_temperature)
    model = model_path(args.game, args.model)
    started = time.perf_counter()
    summary = run(config, args.out, _threads(args.threads), model, args.ray,
                  progress=None if args.quiet else (lambda d, t, r, g: bar(d, t, r, started, g)))
    print(json.dumps(summary))
    return 0


def cmd_train(args) -> int:
    config = TrainConfig(epochs=args.epochs, batch=args.batch, lr=args.lr, seed=args.seed, hidden=args.hidden,
                         value_hidden=args.value_hidden, minutes=args.minutes, blend=args.blend or "",
                         blend_rows=args.blend_rows, blend_epochs=args.blend_epochs, report_rows=args.report_rows,
                         oracle_floor=not args.no_oracle_floor, init=args.init or "", keep_best=args.keep_best,
                         policy_records=args.policy_records, train=args.train)
    config.blend_weights()  # ValueError (one line, exit 2) naming a bad --blend, before the records load
    config.check_policy_options()  # and --train value/policy without --init
    if config.epochs < 1:
        raise ValueError(f"epochs must be 1 or more, not {config.epochs}")
    result = train_model(args.game, args.data, args.out, config, name=args.name, version=args.version,
                         report=args.report, quiet=args.quiet)
    print(json.dumps(result))
    return 0


def cmd_train_cards(args) -> int:
    config = TrainConfig(epochs=args.epochs, batch=args.batch, lr=args.lr, seed=args.seed, hidden=args.hidden,
                         minutes=args.minutes, input_dropout=args.dropout)
    result = add_card_net(args.game, args.model, args.data, args.out, config, version=args.version,
                          report=args.report, quiet=args.quiet,
                          **({} if args.temper is None else {"temper": args.temper}))
    print(json.dumps(result))
    return 0


def cmd_combine(args) -> int:
    print(json.dumps(combine(args.value, args.policy, args.out, args.name, args.version)))
    return 0


def cmd_match(args) -> int:
    result = match(args.game, args.a, args.b, args.games, args.budget, args.seed, _threads(args.threads),
                   budget_b=args.budget_b, quiet=args.quiet)
    print(json.dumps(result))  # the result on stdout in every case; --json FILE also writes it there
    if args.json and args.json != JSON_STDOUT:
        write_json_option(args, result)
    return 0

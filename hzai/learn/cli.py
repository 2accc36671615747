"""The learning commands of `hzai`: selfplay, train, train-cards, combine and match
(docs/learning.md). This module is their parser only; each command's body is in
hzai.learn.commands, which imports numpy and the learning modules, and is imported when
a learning command runs (hzai.lazy), never by `hzai --help` or another command."""

from __future__ import annotations

from hzai.cli_options import add_json_option
from hzai.lazy import lazy_call
from hzai.search.ismcts import DEFAULT_CPUCT, DEFAULT_POOL


def add_commands(sub) -> None:
    p = sub.add_parser("selfplay", help="self-play records for training the learned search (resumable)",
                       description="One native ISMCTS bot plays every seat from its own view; each decision "
                                   "is recorded (view and state features, root visits and value, the hidden "
                                   "truth as labels, the model's value of the true state as the oracle label, "
                                   "the result). Game i is seeded SEED+i; shards of --shard games are written "
                                   "whole, so a run stopped anywhere resumes where it was. Cheap self-play "
                                   "(playout-cap randomisation): with --full-share below 1 only that share of "
                                   "decisions is a full search of --budget iterations (a record with the policy "
                                   "target); the others are played by the model's policy alone (--fast-budget 0) "
                                   "or a search of --fast-budget iterations, and --keep of them are recorded as "
                                   "value-only records. E.g. a million cheap games: --model shipped "
                                   "--full-share 0.1 --keep 0.03 --games 1000000 --shard 1000.")
    p.add_argument("--game", default="hera_zeus", help="the game (default hera_zeus)")
    p.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    p.add_argument("--params", help="the game's options as a JSON object, e.g. "
                                    "'{\"mission\": 3, \"seats\": 4}' for legends (default: the game's defaults)")
    p.add_argument("--budget", type=int, default=200,
                   help="ISMCTS iterations a decision (default 200); iterations only, never a time: a game is "
                        "replayed move for move from its seed")
    p.add_argument("--seed", type=int, default=0, help="game i is dealt and seeded with SEED+i (default 0)")
    p.add_argument("--out", required=True, help="the folder of shards (made, or resumed when it exists)")
    p.add_argument("--model", default="none", help="none (default), shipped, or a model file guiding the search")
    p.add_argument("--explore", type=int, default=8,
                   help="the first N decisions of a game are drawn from the root visits (default 8)")
    p.add_argument("--temperature", type=float, default=1.0, help="of that draw (default 1)")
    p.add_argument("--shard", type=int, default=50, help="games a shard (default 50)")
    p.add_argument("--cpuct", type=float, default=DEFAULT_CPUCT, help=f"PUCT constant with a policy (default {DEFAULT_CPUCT})")
    p.add_argument("--pool", type=int, default=DEFAULT_POOL, help=f"worlds the card model weighs (default {DEFAULT_POOL})")
    p.add_argument("--full-share", type=float, default=1.0, metavar="P",
                   help="each decision is a full search (--budget iterations; its record has the visit-share "
                        "policy target and the root value) with probability P, drawn from the decision's seed; "
                        "the others are fast (default 1: every decision full, as before; cheap self-play: "
                        "0.05-0.25)")
    p.add_argument("--fast-budget", type=int, default=0, metavar="N",
                   help="a fast decision: a search of N iterations, or with 0 (default) the model's policy alone "
                        "(its most probable move; drawn at --temperature in the first --explore decisions). "
                        "Policy-only play needs --model with a policy net")
    p.add_argument("--keep", type=float, default=1.0, metavar="P",
                   help="share of fast decisions recorded, as value-only records (no policy target; the result "
                        "and the oracle value are their value labels; default 1). About 100 decisions a game: "
                        "0.03 keeps about 3 positions a game")
    p.add_argument("--fast-temperature", type=float, default=0.0, metavar="T",
                   help="fast decisions after the opening: 0 (default) the policy's or the fast search's top move, "
                        "T > 0 a draw from its probabilities raised to 1/T")
    p.add_argument("--threads", type=int, default=0, help="threads (default: every core)")
    p.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                   help="play the shards as Ray tasks (local Ray without ADDRESS); same records")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=lazy_call("hzai.learn.commands:cmd_selfplay"))

    p = sub.add_parser("train", help="train value, policy and card-location nets on self-play records",
                       description="numpy only: a value net over full-state features, a policy net over view "
                                   "features with the hostage and face-down-card heads. Games whose number "
                                   "ends in 0 are held out for validation; the loss curves go in --report.")
    p.add_argument("data", nargs="+", help="self-play folders (hzai selfplay --out)")
    p.add_argument("--game", default="hera_zeus", help="the game (default hera_zeus)")
    p.add_argument("--out", required=True, help="the model file to write (.npz)")
    p.add_argument("--name", default="hz", help="the model's name (default hz)")
    p.add_argument("--version", type=int, default=1, help="the model's version (default 1)")
    p.add_argument("--epochs", type=int, default=6, help="passes over the data (default 6)")
    p.add_argument("--batch", type=int, default=256, help="batch size (default 256)")
    p.add_argument("--lr", type=float, default=1e-3, help="Adam's step size (default 0.001)")
    p.add_argument("--hidden", default="256,64", help="the policy net's hidden layers (default 256,64)")
    p.add_argument("--value-hidden", default="64,32", help="the value net's hidden layers (default 64,32)")
    p.add_argument("--minutes", type=float, default=30.0, help="stop each net's training after this long")
    p.add_argument("--seed", type=int, default=0, help="initial weights and batch order (default 0)")
    p.add_argument("--blend", metavar="auto|R,S,O",
                   help="the value target: weights of the game's result, the search's root value (full-search "
                        "records only) and the oracle value (the labelling model's value net on the true state), "
                        "renormalised over the parts a record has; 'auto' trains a short value net for each of a "
                        "small grid and keeps the weights with the least held-out cross-entropy against the "
                        "results (the table goes in --report and on stderr). Default 0.2,0.8,0 (today's)")
    p.add_argument("--blend-rows", type=int, default=200_000,
                   help="blend auto: training records each candidate learns from (default 200000)")
    p.add_argument("--blend-epochs", type=int, default=2, help="blend auto: passes of each candidate (default 2)")
    p.add_argument("--report-rows", type=int, default=100_000,
                   help="held-out records of the report by phase of the game (default 100000)")
    p.add_argument("--train", choices=("both", "value", "policy"), default="both",
                   help="which nets learn (default both); value or policy keeps the other net as --init has it "
                        "(scored on the held-out records, not trained)")
    p.add_argument("--keep-best", choices=("sum", "policy"), default="sum",
                   help="the policy net's best weights are kept by the held-out loss of the policy and card heads "
                        "together (sum, default) or of the policy head alone (policy)")
    p.add_argument("--policy-records", choices=("all", "full"), default="all",
                   help="the policy net learns from every record (all, default: the card heads from all, the "
                        "policy head from the full searches') or from the full searches' records only (full)")
    p.add_argument("--no-oracle-floor", action="store_true",
                   help="skip the oracle-target value net (trained on the oracle value alone) of the phase report")
    p.add_argument("--init", metavar="MODEL",
                   help="start both nets from this model's weights instead of random ones (a warm start: its "
                        "hidden widths must match; features the game has gained since, e.g. Hera and Zeus' "
                        "history features, start with zero weights, so training begins at its play)")
    p.add_argument("--report", help="write the loss curves, calibration, blend table and losses by phase as JSON")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(func=lazy_call("hzai.learn.commands:cmd_train"))

    p = sub.add_parser("train-cards", help="add a card-location net to a model (Legends)",
                       description="Trains the card-location net (each partner's count of each kind, from the "
                                   "seat's view features) on self-play records labelled with the partners' "
                                   "hands, and writes the model with it to --out; its value and policy nets "
                                   "stay as they are. Prints the held-out cross-entropy beside that of the base "
                                   "rates. The search weighs its worlds with it under ismcts:cards=1.")
    p.add_argument("model", help="the model file that gets the card net")
    p.add_argument("data", nargs="+", help="labelled self-play folders (hzai selfplay --out)")
    p.add_argument("--game", default="legends", help="the game (default legends)")
    p.add_argument("--out", required=True, help="the model file to write (.npz)")
    p.add_argument("--version", type=int, help="the new model's version (default: the model's own)")
    p.add_argument("--epochs", type=int, default=6, help="passes over the data (default 6)")
    p.add_argument("--batch", type=int, default=256, help="batch size (default 256)")
    p.add_argument("--lr", type=float, default=1e-3, help="Adam's step size (default 0.001)")
    p.add_argument("--hidden", default="128,64", help="the card net's hidden layers (default 128,64)")
    p.add_argument("--temper", type=float, default=None,
                   help="the power of the worlds' weights the search uses with the net (default: "
                        "hzai.learn.cards.DEFAULT_TEMPER, the best measured)")
    p.add_argument("--dropout", type=float, default=0.1, help="share of input features dropped in training (default 0.1)")
    p.add_argument("--minutes", type=float, default=10.0, help="stop training after this long (default 10)")
    p.add_argument("--seed", type=int, default=0, help="initial weights and batch order (default 0)")
    p.add_argument("--report", help="write the loss curve and figures as JSON")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(func=lazy_call("hzai.learn.commands:cmd_train_cards"))

    p = sub.add_parser("combine", help="a model from the value net of one model file and the policy net of another",
                       description="Writes --out: the value net of --value's model beside the policy net (with its "
                                   "card-location heads) of --policy's, under --name and --version; the header "
                                   "names both sources with their checksums. For a training round that improved "
                                   "one net and not the other (docs/learning.md, hz@3).")
    p.add_argument("--value", required=True, metavar="MODEL", help="the model file whose value net is taken")
    p.add_argument("--policy", required=True, metavar="MODEL", help="the model file whose policy net is taken")
    p.add_argument("--out", required=True, help="the model file to write (.npz)")
    p.add_argument("--name", default="hz", help="the model's name (default hz)")
    p.add_argument("--version", type=int, required=True, help="the model's version")
    p.set_defaults(func=lazy_call("hzai.learn.commands:cmd_combine"))

    p = sub.add_parser("match", help="two guided searches (model files or none) at equal iterations, seats swapped",
                       description="Paired, seat-swapped games in the native arena: game 2k and 2k+1 share a "
                                   "deal. A and B are model files, 'none' (the unguided search) or a file with "
                                   "parts switched off (FILE:value=0,policy=0,cards=0).")
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--game", default="hera_zeus")
    p.add_argument("--games", type=int, default=200, help="games (even; default 200)")
    p.add_argument("--budget", type=int, default=200,
                   help="iterations a decision (default 200); iterations only, never a time, so that a match is "
                        "the same from the same seed")
    p.add_argument("--budget-b", type=int, help="B's iterations a decision (default: --budget)")
    p.add_argument("--seed", type=int, default=900000, help="deals SEED.. (default 900000, never trained on)")
    p.add_argument("--threads", type=int, default=0, help="threads (default: every core)")
    add_json_option(p, "the result (printed on stdout as one line in any case)")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(func=lazy_call("hzai.learn.commands:cmd_match"))

"""Policy-based inference (issue 43, item 2; docs/learning.md): the worlds of a seat's
search weighted by how likely the opponent's observed decisions are under the learned
policy from the opponent's information set in each world (policy_infer.hpp)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from hzai import _native
from hzai.core import make_game
from hzai.core.bot import BotError
from hzai.games.hera_zeus.native.policy_infer import PolicyView, evidence_of, policy_view
from hzai.games.hera_zeus.native.search import flat_view
from hzai.games.hera_zeus.native.state import NativeState, native_game
from hzai.games.hera_zeus.rules.record import deal, initial_state, push_recorded
from hzai.native.model import shipped_model
from hzai.rng import SplitMix64, mix_seed
from hzai.search import Limits, make_bot

GAME = make_game("hera_zeus")
CORE = native_game(GAME)
HERA, ZEUS = 0, 1


def bias_model(bias) -> _native.HzModel:
    """A policy that reads nothing: its logit of action id a is bias[a] in every view."""
    n_in = CORE.feature_count()
    names = len(CORE.names)
    z = lambda *shape: np.zeros(shape, dtype=np.float32)  # noqa: E731
    heads = [(z(len(bias), 1), np.asarray(bias, dtype=np.float32)), (z(16, 1), z(16)), (z(12 * names, 1), z(12 * names))]
    return _native.HzModel(CORE, "test", [], [], [(z(n_in, 1), z(1))], heads)


_TEXTS: list[str] = []


def bias_model_texts() -> list[str]:
    """The notation of every action id."""
    if not _TEXTS:
        _TEXTS.extend(CORE.action_text(a) for a in range(CORE.n_actions))
    return _TEXTS


def moves_of(seed: int, until: int = 300):
    """A random game's record: (setup, move texts), up to `until` moves (chance included)."""
    setup = deal(GAME, seed)
    state = initial_state(GAME, setup)
    bot = make_bot("random")
    referee = SplitMix64(seed ^ 0xA7E4A)
    texts = []
    k = 0
    while not state.is_terminal and len(texts) < until:
        if state.is_chance:
            move = GAME.search.draw_chance(state, referee)
        else:
            move = bot.decide(state.view(state.current_seat), Limits(iterations=1), mix_seed(seed, k)).move
            k += 1
        texts.append(str(move))
        state.apply(move)
    return setup, texts


def replay(setup: dict, texts: list[str]):
    state = initial_state(GAME, setup)
    for i, text in enumerate(texts):
        push_recorded(state, i, text)
    return state


def after_zeus_play(seed: int):
    """Positions of a random game where Hera decides right after Zeus played a card of
    its own face down (its turn's last move): (setup, texts, state, column, row, name)."""
    setup, texts = moves_of(seed)
    state = initial_state(GAME, setup)
    last = None
    for i, text in enumerate(texts):
        if state.current_seat == HERA and last is not None and not state.is_chance:
            yield setup, texts[:i], state.copy(), *last
        if not state.is_chance and state.current_seat == ZEUS and text.startswith("play ") and "@" not in text:
            _, name, slot = text.split(" ")
            last = (int(slot[1]) - 1, int(slot[3]) - 1, name)
        elif not state.is_chance:
            last = None
        push_recorded(state, i, text)


def pool_of(view, n: int, seed: int) -> tuple[_native.ViewSpec, list]:
    spec = flat_view(view, GAME).copy()
    inference = _native.Inference()
    inference.side = 1 - view.seat
    inference.pool = n
    inference.seed = seed
    spec.inference = inference
    return spec, _native.inference_pool(CORE, spec)


def name_at(world, side: int, c: int, r: int) -> str:
    state = NativeState(GAME, world).to_state()
    return state.card(state.columns[side][c][r]).name


def test_evidence_scores_the_opponents_last_moves():
    for seed in range(5):
        for setup, texts, state, c, r, name in after_zeus_play(seed):
            ev = evidence_of(GAME.search.view_of(state, HERA))
            assert ev is not None and ev.seat == HERA and ev.opponent == ZEUS
            assert ev.decisions >= 1 and ev.kinds[-1] == "play"  # its last move, a face-down play
            assert ev.decisions <= ev.opponent_decisions
            return
    pytest.fail("no position after a face-down play of Zeus in 5 random games")


def test_the_scoring_reads_the_features_of_the_opponents_whole_view():
    # each world's opponent view is summed from a part common to the worlds and the
    # world's own cards: the same features as the whole view's encoding
    checked = 0
    for seed in range(12):
        for k, (setup, moves, state, c, r, name) in enumerate(after_zeus_play(seed)):
            if k % 3:
                continue
            view = GAME.search.view_of(state, HERA)
            ev = evidence_of(view)
            spec, worlds = pool_of(view, 30, seed)
            assert _native.pbi_feature_mismatches(ev, worlds) == 0
            checked += ev.decisions
    assert checked >= 20


def test_worlds_the_opponents_choice_makes_unlikely_lose_weight():
    # a policy that never plays a Cyclops: worlds where Zeus's last face-down card is one
    # lose weight against the pool's uniform share
    texts = bias_model_texts()
    model = bias_model([-30.0 if t.startswith("play Cyclops ") else 0.0 for t in texts])
    checked = 0
    for seed in range(40):
        for setup, moves, state, c, r, name in after_zeus_play(seed):
            view = GAME.search.view_of(state, HERA)
            ev = evidence_of(view)
            spec, worlds = pool_of(view, 300, seed)
            at = [name_at(w, ZEUS, c, r) for w in worlds]
            uniform = sum(n == "Cyclops" for n in at) / len(at)
            if uniform < 0.04:
                continue
            logw, stats = _native.pbi_scores(model, ev, worlds, 1.0, 0.05)
            top = max(logw)
            w = [math.exp(x - top) for x in logw]
            weighted = sum(wi for wi, n in zip(w, at) if n == "Cyclops") / sum(w)
            assert stats["scored"] > 0 and stats["worlds"] == 300
            assert weighted < 0.3 * uniform, (seed, uniform, weighted)
            # every Cyclops world scores below every world where Zeus played no Cyclops
            # and held none it could have played (both: that decision alone)
            checked += 1
            break
        if checked >= 3:
            return
    pytest.fail(f"only {checked} positions with Cyclops worlds found")


def test_a_uniform_policy_leaves_the_pool_uniform():
    model = bias_model([0.0] * len(bias_model_texts()))
    for seed in range(10):
        for setup, moves, state, c, r, name in after_zeus_play(seed):
            view = GAME.search.view_of(state, HERA)
            ev = evidence_of(view)
            spec, worlds = pool_of(view, 200, seed)
            logw, stats = _native.pbi_scores(model, ev, worlds, 1.0, 0.25)
            assert stats["scored"] > 0
            assert max(abs(x) for x in logw) < 1e-9
            assert stats["effective_worlds"] == pytest.approx(200.0)
            weighted = policy_view(view, view, model, 200, seed)
            assert isinstance(weighted, PolicyView)
            assert max(abs(x) for x in weighted.native_spec.inference.world_log_weight) < 1e-9
            assert weighted.stats["effective_pool"] == pytest.approx(200.0)
            return
    pytest.fail("no position to check")


def test_same_seed_same_weights_on_one_and_two_threads():
    _, model = shipped_model(GAME)
    for seed in range(10):
        for setup, moves, state, c, r, name in after_zeus_play(seed):
            view = GAME.search.view_of(state, HERA)
            ev = evidence_of(view)
            spec = flat_view(view, GAME)
            one, s1 = _native.pbi_view(model, CORE, spec, ev, 200, 99, 1.0, 0.25, 1)
            two, s2 = _native.pbi_view(model, CORE, spec, ev, 200, 99, 1.0, 0.25, 2)
            again, _ = _native.pbi_view(model, CORE, spec, ev, 200, 99, 1.0, 0.25, 1)
            w1, w2 = one.inference.world_log_weight, two.inference.world_log_weight
            assert w1 == w2 == again.inference.world_log_weight
            assert s1["effective_pool"] == s2["effective_pool"]
            assert max(w1) - min(w1) > 1e-3  # the shipped policy tells the worlds apart
            return
    pytest.fail("no position to check")


def look_alike(setup: dict, texts: list[str], c: int, r: int, name: str):
    """The same game with Zeus's last face-down card another name: one copy of `name`
    Zeus held swapped with a card its deck still holds at the end, and its play named
    after that card. (setup, texts) of the first such game whose moves all stay legal."""
    zeus = setup["zeus"]
    drawn = sum(1 for t in texts if t == "draw")  # an upper bound of Zeus's draws
    names = {card.name: card for card in GAME.deck.cards}
    undrawn = range(min(len(zeus["deck"]), drawn), len(zeus["deck"]))
    played = max(i for i, t in enumerate(texts) if t == f"play {name} c{c + 1}r{r + 1}")
    for where in ("hand", "deck"):
        for i, held in enumerate(zeus[where]):
            if held != name or (where == "deck" and i >= drawn):
                continue
            for j in undrawn:
                other = zeus["deck"][j]
                card = names[other]
                if other == name or not card.type.placeable or card.type.kind == "hostage":
                    continue
                swapped = {"hera": setup["hera"], "zeus": {"hand": list(zeus["hand"]), "deck": list(zeus["deck"])}}
                swapped["zeus"][where][i] = other
                swapped["zeus"]["deck"][j] = name
                moved = list(texts)
                moved[played] = f"play {other} c{c + 1}r{r + 1}"
                try:
                    state = replay(swapped, moved)
                except Exception:  # noqa: BLE001 - an illegal move: not a look-alike
                    continue
                return swapped, moved, state
    return None


def test_no_peeking_look_alike_games_give_the_same_weights():
    _, model = shipped_model(GAME)
    for seed in range(40):
        for setup, texts, state, c, r, name in after_zeus_play(seed):
            other = look_alike(setup, texts, c, r, name)
            if other is None:
                continue
            _, _, twin = other
            a, b = GAME.search.view_of(state, HERA), GAME.search.view_of(twin, HERA)
            if a.to_json() != b.to_json():
                continue  # Hera could tell them apart (the swapped card showed somewhere)
            truth = state.card(state.columns[ZEUS][c][r]).name
            assert truth != twin.card(twin.columns[ZEUS][c][r]).name  # two different truths
            ea, eb = evidence_of(a), evidence_of(b)
            assert ea.decisions == eb.decisions >= 1
            wa = policy_view(a, a, model, 200, seed).native_spec.inference.world_log_weight
            wb = policy_view(b, b, model, 200, seed).native_spec.inference.world_log_weight
            assert wa == wb
            assert max(wa) - min(wa) > 1e-3
            return
    pytest.fail("no look-alike pair found in 40 random games")


@pytest.mark.parametrize("spec, named", [
    ("ismcts:pbi=2", "option pbi "),
    ("ismcts:pbi=yes", "option pbi "),
    ("ismcts:pbi=1,pbi_temp=0", "option pbi_temp "),
    ("ismcts:pbi=1,pbi_temp=11", "option pbi_temp "),
    ("ismcts:pbi=1,pbi_eps=0", "option pbi_eps "),
    ("ismcts:pbi=1,pbi_eps=1.5", "option pbi_eps "),
    ("ismcts:pbi_eps=0.5", "need pbi=1"),
    ("ismcts:pbi_temp=2", "need pbi=1"),
    ("ismcts:pbi_ratio=0", "need pbi=1"),
    ("ismcts:pbi=1,pbi_ratio=2", "option pbi_ratio "),
    ("ismcts:pbi=1,tree=multi", "option pbi=1"),
])
def test_bad_options_are_refused_by_name(spec, named):
    with pytest.raises(BotError, match=named):
        make_bot(spec)


def test_native_options_are_checked():
    model = bias_model([0.0] * len(bias_model_texts()))
    for seed in range(5):
        for setup, moves, state, c, r, name in after_zeus_play(seed):
            view = GAME.search.view_of(state, HERA)
            ev = evidence_of(view)
            spec = flat_view(view, GAME)
            with pytest.raises(ValueError, match="temperature"):
                _native.pbi_view(model, CORE, spec, ev, 10, 1, 0.0, 0.25, 1)
            with pytest.raises(ValueError, match="epsilon"):
                _native.pbi_view(model, CORE, spec, ev, 10, 1, 1.0, 0.0, 1)
            with pytest.raises(ValueError, match="pool"):
                _native.pbi_view(model, CORE, spec, ev, 0, 1, 1.0, 0.25, 1)
            return
    pytest.fail("no position to check")


def test_the_bot_searches_the_weighted_worlds_and_repeats_its_move():
    for seed in range(5):
        for setup, moves, state, c, r, name in after_zeus_play(seed):
            bot = make_bot("ismcts:pbi=1")
            first = bot.decide(GAME.search.view_of(state, HERA), Limits(iterations=60), 5).move
            again = make_bot("ismcts:pbi=1").decide(GAME.search.view_of(state, HERA), Limits(iterations=60), 5).move
            assert str(first) == str(again)
            return
    pytest.fail("no position to check")


def test_the_belief_report_shows_the_policy_distribution_beside_the_others():
    for seed in range(5):
        for setup, moves, state, c, r, name in after_zeus_play(seed):
            view = GAME.search.view_of(state, HERA)
            report = GAME.presentation.belief_report(view, 300, 3)
            locations = report["hostage"]["locations"]
            assert all({"probability", "inferred", "learned", "policy"} <= set(loc) for loc in locations)
            assert sum(loc["policy"] for loc in locations) == pytest.approx(1.0)
            assert report["policy_inference"]["decisions"] >= 1
            assert 0 < report["policy_inference"]["effective_samples"] <= 300
            assert "policy" in GAME.presentation.belief_text(report)
            # a view that knows no history (read back from JSON) has no policy column
            from hzai.games.hera_zeus.belief.view import View

            bare = GAME.presentation.belief_report(View.from_json(view.to_json(), GAME), 300, 3)
            assert "policy_inference" not in bare and "policy" not in bare["hostage"]["locations"][0]
            return
    pytest.fail("no position to check")


def test_the_service_view_and_the_reference_view_give_the_same_weights():
    # the service's native decision view (from the record) and the reference view (from
    # the replayed state) build the same evidence
    from hzai.games.hera_zeus.rules.game import Record

    _, model = shipped_model(GAME)
    for seed in range(5):
        for setup, moves, state, c, r, name in after_zeus_play(seed):
            record = Record(GAME, setup=setup, moves=moves)
            fast = GAME.records.view_to_decide(record)
            assert type(fast).__name__ == "NativeDecisionView"
            ref = GAME.search.view_of(state, HERA)
            assert evidence_of(fast).kinds == evidence_of(ref).kinds
            wa = policy_view(fast, fast, model, 200, 5).native_spec.inference.world_log_weight
            wb = policy_view(ref, ref, model, 200, 5).native_spec.inference.world_log_weight
            assert wa == wb
            return
    pytest.fail("no position to check")


def test_the_belief_report_of_the_seat_not_to_move_has_the_policy_column_too():
    for seed in range(5):
        for setup, moves, state, c, r, name in after_zeus_play(seed):
            # Zeus's view while Hera decides: Hera's decisions since her last draw
            report = GAME.presentation.belief_report(GAME.search.view_of(state, ZEUS), 200, 3)
            if "policy_inference" not in report:
                continue
            assert sum(loc["policy"] for loc in report["hostage"]["locations"]) == pytest.approx(1.0)
            return
    pytest.fail("no position to check")

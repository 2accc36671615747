"""Earlier kept models stay playable under a bot name (game.model.archive): ismcts-v3 is
the learned default as it was before the history-reading model. Its moves are held by
tests/golden/learned_decisions.json; here, where it plays and how it refuses."""

from __future__ import annotations

import hashlib

import pytest

from hzai.core import BotError
from hzai.core.registry import make_game
from hzai.native.model import ModelError, archived_path, read
from hzai.search import make_bot
from hzai.search.bot import bot_kind


def test_hera_zeus_keeps_its_retired_default_as_v3():
    game = make_game("hera_zeus")
    path = archived_path(game, "v3")
    weights = read(path)
    assert weights.model_id == "hz@2"
    assert bot_kind("ismcts-v3").plays_game(game)
    bot = make_bot("ismcts-v3", game)
    guide = bot.guide(game)
    assert guide.model_id == "hz@2" and guide.value and guide.policy and guide.cards
    assert (guide.cpuct, guide.mix) == (0.25, 0.5)  # the defaults it shipped with, whatever today's are


def test_retired_model_file_is_unchanged():
    """The archived file is the very hz@2 file that was the default (its checksum)."""
    digest = hashlib.sha256(archived_path(make_game("hera_zeus"), "v3").read_bytes()).hexdigest()
    assert digest == "1b92b3bea5d2058905a21b01c6acddc5ea526650595d0d0150fbdf0cbfd6e201"


def test_a_game_without_the_archived_model_is_refused_by_name():
    legends = make_game("legends")
    assert not bot_kind("ismcts-v3").plays_game(legends)  # the service does not offer it there
    with pytest.raises(BotError, match="legends keeps no earlier model 'v3'"):
        make_bot("ismcts-v3", legends)
    with pytest.raises(ModelError, match="keeps no earlier model 'v9'"):
        archived_path(make_game("hera_zeus"), "v9")

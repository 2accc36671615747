"""A determinization that the sampler once could not find: p2's view after p1 handed over a
second DI that p1 must have drawn unseen, while an earlier DI went back and forth (the
first 200 attempts all made p1 discard the wrong card). Found by the Legends strength
benchmark (random team, mission 1, deal 5160)."""

from __future__ import annotations

from hzai.games.legends import Record

RECORD = {"format": "legends-record/1", "mission": 1, "difficulty": "human", "heroes": ["Perseus", "Atalanta"], "first_player": "p1", "variants": {"relocation": "paid", "turn_limit": 200}, "data": "classic", "setup": {"monster_deck": ["Harpy", "Gorgon", "Lamia", "Giant Lion", "Hydra", "Griffin", "Minotaur", "Cerberus", "Centaur", "Cyclops"], "hands": {"p1": ["courage", "di", "speed", "guile"], "p2": ["arms", "di", "guile", "guile"]}, "draw_pile": ["speed", "speed", "di", "strength", "courage", "guile", "arms", "arms", "courage", "strength", "guile", "strength", "di", "speed", "speed", "strength", "strength", "guile", "courage", "speed", "strength", "courage", "guile", "guile", "guile", "strength", "strength", "arms", "speed", "strength", "courage", "strength", "arms", "arms", "arms", "arms", "courage", "speed", "arms", "arms", "speed", "courage", "courage", "guile", "strength", "arms", "speed", "courage", "guile", "speed", "courage"]}, "moves": ["place m1", "place m1", "support p2 di,guile", "discard guile,guile", "support p1 arms,di", "discard arms", "recover 0", "discard speed", "move m2 guile", "oracle", "discard speed order di,speed,strength,courage,guile", "fight di guile", "support p2 courage", "discard courage", "recover 1", "discard di", "recover 3", "discard speed", "recover 1", "discard guile", "fight ability courage", "recover 1", "discard arms", "recover 3", "discard courage", "recover 2", "discard strength", "support p2 arms,di", "discard di", "move m1 guile", "recover 1", "discard strength", "support p1 arms", "discard strength", "support p2 arms,di"]}


def test_every_seed_finds_a_sample_the_seat_cannot_tell_apart():
    view = Record.from_json(RECORD).replay().view(1)
    for seed in range(40):
        sample = view.sample(seed)
        assert sample.view(1).to_json() == view.to_json()
    assert view.legal_moves()

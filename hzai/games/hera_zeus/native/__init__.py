"""Hera and Zeus' adapters to its C++ twin (module `hzai._native`):

    state      native_game, NativeState, random_playouts: decks, variants and states
    search     flat_view, native_sample, new_search, new_pimc: a seat's view as the
               native sampler and search read it
    decision   the view to decide after a record, replayed in C++
    inference  a view whose worlds follow the opponent model
    tables     the phases, pending kinds, end reasons and action blocks of tables.def
    check      the differential check against the reference engine
    deckfile   a deck as the core's self-test program reads it

    >>> from hzai.games.hera_zeus.rules import Game, Record
    >>> from hzai.games.hera_zeus.native.state import NativeState, random_playouts
    >>> state = NativeState.from_state(Record(Game.create(), seed=7).start())
    >>> state.legal_texts()[:1], state.apply(state.legal_actions()[0])
    >>> winners, lengths, turns = random_playouts(state, 1000, seed=1, threads=2)

Card ids, action ids (hzai.games.hera_zeus.rules.actions) and the state JSON are those
of the reference engine; the differential tests in tests/native keep the two equal move
by move. Importing this package loads nothing, so the rules can read `tables` (pure
Python) without importing the twin built from them.
"""

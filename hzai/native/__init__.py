"""The native core's game-free Python side: the compiled module `hzai._native` (the
rules twins, the search over the game trait hzai/native/search/trait.hpp, and their
bindings) is used directly; here are only what every game shares:

    tables   the shared `.def` tables read as text (the search's playout policies)
    model    model files of the learned search: reading, checking, loading

Each game's adapters to its twin live in its own package (hzai.games.<game>.native).
Importing this package loads nothing.
"""

"""The native core's game-free Python side: the compiled module `hzai._native` (the
rules twins, the search over the game trait hzai/native/search/trait.hpp, and their
bindings) is used directly. This folder's C++ is what every game shares (the search
templates, the trait, the MLP, the RNG, the generic bindings, the module's entry); each
game's twin and its registration live in hzai/games/<game>/native/. Here in Python are
only what every game shares:

    tables   the shared `.def` tables read as text (the search's playout policies)
    model    model files of the learned search: reading, checking, loading

Each game's adapters to its twin live in its own package (hzai.games.<game>.native).
Importing this package loads nothing.
"""

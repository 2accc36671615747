"""Legends of Hellas' adapters to its C++ twin (module `hzai._native`):

    twin    the game handle, states and a seat's view as the twin reads them
    check   the differential play against the reference engine

Importing this package loads nothing.
"""

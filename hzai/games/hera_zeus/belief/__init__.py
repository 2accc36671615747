"""What each player knows (R-INFO): views, knowledge tracking, determinization, belief.

    >>> from hzai.games.hera_zeus.belief import view_of, determinize
    >>> view = view_of(state, observer=0)          # Hera's information set
    >>> world = determinize(view, seed=1)          # a full state consistent with it
"""

from hzai.games.hera_zeus.belief.knowledge import BeliefError, Knowledge
from hzai.games.hera_zeus.belief.report import belief_report, exact_hostage_locations, format_report
from hzai.games.hera_zeus.belief.sampler import Determinizer, determinize
from hzai.games.hera_zeus.belief.view import View, view_of

__all__ = [
    "BeliefError",
    "Determinizer",
    "Knowledge",
    "View",
    "belief_report",
    "determinize",
    "exact_hostage_locations",
    "format_report",
    "view_of",
]

"""Warm starts: a net's first weights taken from an earlier model (`hzai train --init`).

Expert iteration keeps what a round learned: the next round's nets start where the kept
model's ended instead of from random weights. A model may read fewer features than the
game has today (features appended since, such as Hera and Zeus' history features after the
table's 1,920): the rows of the new features start at zero, so the warm net computes
exactly the earlier model's function until training moves them, and learns what the new
features add on top of it. Hidden widths and heads must match the earlier net's; anything
else is refused with a message naming the net and the layer.
"""

from __future__ import annotations

import numpy as np


class WarmStartError(ValueError):
    """An earlier model whose net cannot seed this one: the message says which part differs."""


def warm_start(net, earlier: dict, which: str) -> None:
    """Copy `earlier` ({"trunk": [(w, b)], "heads": [(w, b)]}, as a model file keeps a net)
    into `net` (hzai.learn.train.Net) in place: the first layer's rows for the inputs both
    read, zero rows for the inputs only `net` reads."""
    trunk, heads = earlier["trunk"], earlier["heads"]
    if len(trunk) != len(net.trunk) or len(heads) != len(net.heads):
        raise WarmStartError(f"the earlier {which} net has {len(trunk)} trunk layers and {len(heads)} heads, "
                             f"this one {len(net.trunk)} and {len(net.heads)}")
    for k, ((w, b), (w0, b0)) in enumerate(zip(net.trunk, trunk)):
        w0 = np.asarray(w0, np.float32)
        if k == 0:
            if w0.shape[1] != w.shape[1] or w0.shape[0] > w.shape[0]:
                raise WarmStartError(f"the earlier {which} net's first layer is {w0.shape[0]} x {w0.shape[1]}, "
                                     f"this one {w.shape[0]} x {w.shape[1]}: widths must match and the earlier "
                                     "net may read no more features")
            w[...] = 0.0
            w[: w0.shape[0]] = w0
        else:
            if w0.shape != w.shape:
                raise WarmStartError(f"the earlier {which} net's trunk layer {k} is {w0.shape}, this one {w.shape}")
            w[...] = w0
        b[...] = np.asarray(b0, np.float32)
    for k, ((w, b), (w0, b0)) in enumerate(zip(net.heads, heads)):
        w0 = np.asarray(w0, np.float32)
        if w0.shape != w.shape:
            raise WarmStartError(f"the earlier {which} net's head {k} is {w0.shape}, this one {w.shape}")
        w[...] = w0
        b[...] = np.asarray(b0, np.float32)

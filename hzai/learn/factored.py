"""The policy of a game whose actions are too many to give each a logit (Legends: about
600,000 action ids, most of them Oracle orders): the policy net's head has one output
per *action feature* (the twin's `action_features(seat, action)`: its kind, its monster,
its cards...), and an action's logit is the sum of the head's outputs at its features.
A softmax over every legal move a record's root lists is trained against their visit
shares (cross-entropy; the moves the search passed over have share 0, so the net learns
to rank them below the searched ones: a softmax over the visited moves alone leaves
every other move unranked); hzai.learn.train fits it with its trunk and Adam.

Each self-play folder was played in one game setting (its meta.json's params): the
features of a record's actions come from that setting's twin.
"""

from __future__ import annotations

import numpy as np


class ActionTable:
    """Every record's listed actions as (row, visit share, features): pairs in record
    order (a record's pairs contiguous), their features in CSR."""

    def __init__(self, data: dict, games: list):
        ptr, act, prob = data["policy_ptr"], data["policy_action"], data["policy_prob"]
        seat, folder = data["seat"], data["folder"]
        cache: dict[tuple[int, int, int], list[int]] = {}
        feats, fptr = [], [0]
        for r in range(len(seat)):
            for a in act[ptr[r]:ptr[r + 1]]:
                key = (int(folder[r]), int(seat[r]), int(a))
                if key not in cache:
                    cache[key] = list(games[key[0]].search.native.action_features(key[1], key[2]))
                feats.extend(cache[key])
                fptr.append(len(feats))
        self.ptr = np.asarray(ptr, np.int64)  # record -> its pairs
        self.prob = np.asarray(prob, np.float32)
        self.feat = np.asarray(feats, np.int64)
        self.fptr = np.asarray(fptr, np.int64)

    def batch(self, rows: np.ndarray):
        """For `rows`: each pair's row in the batch, its share, each (pair, feature) entry."""
        starts, ends = self.ptr[rows], self.ptr[rows + 1]
        counts = ends - starts
        pairs = np.concatenate([np.arange(s, e) for s, e in zip(starts, ends)]) if len(rows) else np.zeros(0, np.int64)
        pair_row = np.repeat(np.arange(len(rows)), counts)
        fcounts = self.fptr[pairs + 1] - self.fptr[pairs]
        entries = np.concatenate([np.arange(self.fptr[p], self.fptr[p + 1]) for p in pairs]) if len(pairs) else \
            np.zeros(0, np.int64)
        entry_pair = np.repeat(np.arange(len(pairs)), fcounts)
        return pair_row, self.prob[pairs], entry_pair, self.feat[entries], counts


def factored_loss(net, x: np.ndarray, table: ActionTable, rows: np.ndarray, grad: bool):
    """(cross-entropy against the visit shares, top-1 agreement, gradients or None)."""
    outs, acts = net.forward(x)
    z = outs[0]
    B = len(rows)
    pair_row, share, entry_pair, entry_feat, counts = table.batch(rows)
    P = len(pair_row)
    logits = np.bincount(entry_pair, weights=z[pair_row[entry_pair], entry_feat], minlength=P)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    top = np.maximum.reduceat(logits, starts)
    e = np.exp(logits - top[pair_row])
    total = np.add.reduceat(e, starts)
    lp = logits - top[pair_row] - np.log(total[pair_row])
    loss = float(-(share * lp).sum() / B)
    best_share = np.maximum.reduceat(share, starts)
    agree = float(np.mean([(share[s:s + c][np.argmax(lp[s:s + c])] >= best_share[i])
                           for i, (s, c) in enumerate(zip(starts, counts))])) if B else 0.0
    if not grad:
        return loss, agree, None
    d_logit = (np.exp(lp) - share) / B
    dz = np.zeros_like(z)
    np.add.at(dz, (pair_row[entry_pair], entry_feat), d_logit[entry_pair])
    return loss, agree, net.backward(acts, [dz.astype(np.float32)])

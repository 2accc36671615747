"""The learned search (docs/learning.md): self-play records from the native arena,
models trained on them with numpy, and model files the native core evaluates.

    hzai selfplay --games 2000 --budget 200 --out data/r0      # records, resumable
    hzai train data/r0 --out model.npz                         # value, policy, card nets
    hzai match model.npz --games 400                           # the new model against the kept one

Nothing here names a game's rules: a game offers `native.selfplay`, `native.feature_count`
and a model layout (`game.model.feature_layout`), and ships its kept model beside its package.
"""

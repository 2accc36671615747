"""Model files of the learned search (docs/learning.md): the weights of a game's value and policy nets in one `.npz`, with a
header naming the format, the game, the model's name and version, the layer shapes and a
SHA-256 of the weights, checked on load (a wrong checksum, format, game or shape is
refused with ModelError naming it). The native core evaluates the loaded model
(`_native.HzModel`); a file is read once per process (`load_cached`).

Layout of the arrays: `value/trunk/K/w` (inputs x outputs), `value/trunk/K/b`,
`value/head/K/w` (outputs x inputs), `value/head/K/b`, the same under `policy/` and `cards/` (the card-location net of a game whose twin
reads one: Legends). A net
with no trunk layers is absent (a model may have a value net only, say).
"""

from __future__ import annotations

import hashlib
import io
import json
import threading
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from hzai import _native
from hzai.core.registry import make_game

FORMAT = "hzai-model/1"
MAX_FILE_BYTES = 64 * 1024 * 1024  # a model file bigger than this is refused unread
NETS = ("value", "policy", "cards")


class ModelError(ValueError):
    """A model file that cannot be used: the message names what is wrong."""


@dataclass
class Weights:
    """The arrays of one model and its header (see the module docstring)."""

    game: str
    name: str
    version: int
    nets: dict = field(default_factory=dict)  # net -> {"trunk": [(w, b)], "heads": [(w, b)]}
    info: dict = field(default_factory=dict)  # how it was made: command, seeds, data, figures

    def arrays(self) -> dict[str, np.ndarray]:
        out = {}
        for net, parts in self.nets.items():
            for kind in ("trunk", "head"):
                for k, (w, b) in enumerate(parts["trunk" if kind == "trunk" else "heads"]):
                    out[f"{net}/{kind}/{k}/w"] = np.ascontiguousarray(w, dtype=np.float32)
                    out[f"{net}/{kind}/{k}/b"] = np.ascontiguousarray(b, dtype=np.float32)
        return out

    def shapes(self) -> dict[str, list[int]]:
        return {key: list(a.shape) for key, a in sorted(self.arrays().items())}

    @property
    def model_id(self) -> str:
        return f"{self.name}@{self.version}"


def checksum(arrays: dict[str, np.ndarray]) -> str:
    """SHA-256 over the arrays as stored, in key order: each key, its shape and its bytes."""
    h = hashlib.sha256()
    for key in sorted(arrays):
        a = np.ascontiguousarray(arrays[key])
        h.update(key.encode())
        h.update(json.dumps(list(a.shape)).encode())
        h.update(a.tobytes())
    return h.hexdigest()


def stored(arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The arrays as a file keeps them: weights in float16 (half the size; the core
    computes in float32), biases in float32."""
    return {k: a.astype(np.float16 if k.endswith("/w") else np.float32) for k, a in arrays.items()}


def save(weights: Weights, path: str | Path) -> str:
    """Write `weights` to `path` (written whole, then renamed into place); returns the checksum."""
    arrays = stored(weights.arrays())
    digest = checksum(arrays)
    header = {"format": FORMAT, "game": weights.game, "name": weights.name, "version": weights.version,
              "shapes": weights.shapes(), "sha256": digest, "info": weights.info}
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.savez_compressed(f, header=np.frombuffer(json.dumps(header, sort_keys=True).encode(), dtype=np.uint8),
                            **arrays)
    tmp.replace(path)
    return digest


def read(path: str | Path) -> Weights:
    """The weights of a model file, its checksum verified (ModelError naming what is wrong)."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ModelError(f"model file {str(path)!r}: {exc.strerror or exc}") from None
    if size > MAX_FILE_BYTES:
        raise ModelError(f"model file {str(path)!r} is {size} bytes, over the {MAX_FILE_BYTES} a model may have")
    try:
        data = np.load(io.BytesIO(path.read_bytes()), allow_pickle=False)
        files = set(data.files)
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise ModelError(f"model file {str(path)!r} is not a model (.npz) file: {exc}") from None
    if "header" not in files:
        raise ModelError(f"model file {str(path)!r} has no header")
    try:
        header = json.loads(bytes(data["header"]).decode())
    except (ValueError, UnicodeDecodeError) as exc:
        raise ModelError(f"model file {str(path)!r}: its header is not JSON ({exc})") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ModelError(f"model file {str(path)!r}: format {header.get('format') if isinstance(header, dict) else None!r}"
                         f" is not {FORMAT!r}")
    arrays = {key: data[key] for key in files if key != "header"}
    for key, a in arrays.items():
        if a.dtype not in (np.float16, np.float32):
            raise ModelError(f"model file {str(path)!r}: array {key} is {a.dtype}, not float16 or float32")
    shapes = {key: list(a.shape) for key, a in sorted(arrays.items())}
    if shapes != header.get("shapes"):
        raise ModelError(f"model file {str(path)!r}: the arrays' shapes do not match its header")
    digest = checksum(arrays)
    if digest != header.get("sha256"):
        raise ModelError(f"model file {str(path)!r}: checksum mismatch (header {header.get('sha256')!r}, "
                         f"weights {digest!r})")
    arrays = {key: a.astype(np.float32) for key, a in arrays.items()}
    nets: dict = {}
    for net in NETS:
        trunk, heads = _layers(arrays, net, "trunk"), _layers(arrays, net, "head")
        if trunk:
            nets[net] = {"trunk": trunk, "heads": heads}
    return Weights(str(header.get("game")), str(header.get("name")), int(header.get("version", 0)), nets,
                   dict(header.get("info") or {}))


def _layers(arrays: dict, net: str, kind: str) -> list[tuple[np.ndarray, np.ndarray]]:
    out = []
    k = 0
    while f"{net}/{kind}/{k}/w" in arrays:
        out.append((arrays[f"{net}/{kind}/{k}/w"], arrays[f"{net}/{kind}/{k}/b"]))
        k += 1
    return out


def native_model(game, weights: Weights):
    """The native core's model built from `weights` for `game` (ModelError when it is
    another game's, or its shapes do not fit the game)."""
    if weights.game != game.name:
        raise ModelError(f"model {weights.model_id} is for game {weights.game!r}, not {game.name!r}")
    native = game.search.native if game.capabilities.model else None
    if native is None:
        raise ModelError(f"game {game.name} has no native features: it cannot evaluate a model (capability model)")
    value = weights.nets.get("value", {"trunk": [], "heads": []})
    policy = weights.nets.get("policy", {"trunk": [], "heads": []})
    try:
        if hasattr(native, "new_model"):  # a game whose twin builds its own model bundle (Legends)
            cards = weights.nets.get("cards", {"trunk": [], "heads": []})
            temper = (weights.info.get("cards") or {}).get("temper", 1.0)  # set when the net was chosen
            return native.new_model(weights.model_id, value["trunk"], value["heads"], policy["trunk"],
                                    policy["heads"], cards["trunk"], cards["heads"], float(temper))
        if "cards" in weights.nets:
            raise ModelError(f"model {weights.model_id} has a card net, which game {game.name} does not read")
        return _native.HzModel(native, weights.model_id, value["trunk"], value["heads"], policy["trunk"],
                               policy["heads"])
    except ValueError as exc:
        raise ModelError(f"model {weights.model_id} does not fit game {game.name}: {exc}") from None


_CACHE: dict[tuple[str, str], tuple[Weights, object]] = {}
_LOCK = threading.Lock()


def load_cached(game, path: str | Path):
    """(weights, native model) of `path` for `game`, read and checked once per process
    for each version of the file: a file written again at the same path (a training round
    retrained in place) is read again, never answered from the cache of its old weights."""
    resolved = Path(path).resolve()
    try:
        stat = resolved.stat()
        version = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
    except OSError:
        version = None  # read() names the problem
    key = (game.name, str(resolved), version)
    with _LOCK:
        if key not in _CACHE:
            weights = read(path)
            _CACHE[key] = (weights, native_model(game, weights))
        return _CACHE[key]


# ----- the model a game ships beside its package (game.model.file) --------------------
def shipped_path(game) -> Path | None:
    """The game's kept model file, or None when it ships none (or has no learned search:
    capability model)."""
    path = game.model.file if game.capabilities.model else None
    return Path(path) if path is not None and Path(path).is_file() else None


_SHIPPED: dict[tuple[str, str], tuple[Weights, object] | None] = {}


def archived_path(game, tag: str) -> Path:
    """The file of the earlier model `game` keeps under `tag` (game.model.archive);
    ModelError when it keeps none under that tag or the file is missing."""
    entry = game.model.archive.get(tag) if game.capabilities.model else None
    if entry is None:
        raise ModelError(f"game {game.name} keeps no earlier model {tag!r}"
                         + (f" (it keeps: {', '.join(sorted(game.model.archive))})" if game.model is not None and game.model.archive else ""))
    path = Path(entry[0])
    if not path.is_file():
        raise ModelError(f"game {game.name}'s earlier model {tag!r} is missing: {path.name}")
    return path


def shipped_model(game, tag: str | None = None):
    """(weights, native model) of the game's kept model (`tag` None) or of the earlier
    model it keeps under `tag` (archived_path), or None where it ships none; ModelError
    for a file that is there but broken (a wrong checksum, a shape that does not fit).
    Looked up once per process for a game's model file (every search asks: no path is
    resolved again)."""
    if tag is not None:
        return load_cached(game, archived_path(game, tag))
    key = (game.name, str(game.model.file) if game.capabilities.model else "")
    try:
        return _SHIPPED[key]
    except KeyError:
        pass
    path = shipped_path(game)
    loaded = None if path is None else load_cached(game, path)
    with _LOCK:
        _SHIPPED[key] = loaded
    return loaded


def model_id(game) -> str | None:
    """name@version of the game's kept model, or None."""
    loaded = shipped_model(game)
    return None if loaded is None else loaded[0].model_id


def model_path(game_name: str, text: str | None) -> str | None:
    """A command's model option: none (no model), shipped (the game's kept model) or a file."""
    if text in (None, "none"):
        return None
    if text == "shipped":
        path = shipped_path(make_game(game_name))
        if path is None:
            raise ModelError(f"game {game_name} ships no model")
        return str(path)
    return text

"""Reading JSON that anyone may have written: one function every record reader uses.

`json.loads` accepts shapes that break the code reading the result: nesting deep enough
to raise RecursionError (in the parser itself, or later in repr() or json.dumps of a
part of it), NaN and Infinity (not JSON at all), and integers of thousands of digits
(ValueError from Python's conversion limit). `loads` refuses all three with a
JsonShapeError (a ValueError) whose message is one line naming what is wrong, so a
command can print it and exit 2, and a service can answer INVALID_ARGUMENT with it."""

from __future__ import annotations

import json

MAX_DEPTH = 64  # arrays and objects inside each other; no record of any game needs more than a few


class JsonShapeError(ValueError):
    """Text that is not JSON, or JSON of a shape no reader here accepts."""


def _no_constant(name: str):
    raise JsonShapeError(f"{name} is not a JSON number")


def depth_of(data) -> int:
    """How many arrays and objects are nested at the deepest point of `data` (parsed
    JSON); computed without recursion, so any depth can be measured."""
    deepest = 0
    stack = [(data, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in children if isinstance(child, (dict, list)))
    return deepest


def loads(text: str | bytes, what: str = "the text", max_depth: int = MAX_DEPTH):
    """The value of the JSON `text`; JsonShapeError (one line, starting with `what`)
    when it is not JSON, nests arrays and objects deeper than `max_depth`, holds NaN or
    Infinity, or a number Python will not convert."""
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except JsonShapeError as exc:
        raise JsonShapeError(f"{what} is not valid JSON: {exc}") from None
    except json.JSONDecodeError as exc:
        raise JsonShapeError(f"{what} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise JsonShapeError(f"{what}: JSON nested too deeply (at most {max_depth} levels of arrays and "
                             "objects)") from None
    except UnicodeDecodeError:
        raise JsonShapeError(f"{what} is not UTF-8 text") from None
    except ValueError as exc:  # an integer longer than Python converts, for one
        raise JsonShapeError(f"{what} is not valid JSON here: {str(exc).splitlines()[0][:200]}") from None
    depth = depth_of(data)
    if depth > max_depth:
        raise JsonShapeError(f"{what}: JSON nested {depth} levels deep; at most {max_depth} levels of arrays "
                             "and objects are read")
    return data

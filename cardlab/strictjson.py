"""JSON as the standard defines it, read and walked without meeting Python's limits.

:func:`parse` reads a JSON text and refuses what the standard does not allow or what could
not be written back: ``NaN`` and ``Infinity``, a number too large for a float, an integer
with more digits than Python reads (4,300), a key given twice in one object, and a lone
surrogate (``"\\ud800"``), which no UTF-8 file can hold. Each refusal is a
:class:`~cardlab.errors.ReplayError` with the JSON path of the value. Deep nesting is allowed
up to ``max_nesting`` (the parser's recursion limit is raised for the call) and refused
beyond it; the walkers here (:func:`depth`, :func:`copy`, :func:`find`) are iterative, so no
depth meets Python's recursion limit.

>>> parse('{"a": [1, 2.5, "x"]}')
{'a': [1, 2.5, 'x']}
>>> parse('{"a": 1, "a": 2}', file="f.json")
Traceback (most recent call last):
...
cardlab.errors.ReplayError: f.json:$: the key 'a' is given twice in this object
>>> depth({"a": [[1]]}), copy([{"b": [2]}])
(3, [{'b': [2]}])
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

from .errors import ReplayError

INT_DIGITS = 4300  # Python's default int_max_str_digits: more digits cannot be read back

# A \\uXXXX escape of a high surrogate not followed by a low one, or of a low one alone.
_LONE_ESCAPE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
                          r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}")
_RAW_SURROGATE = re.compile("[\ud800-\udfff]")


class Bad:
    """Stands in the parsed data for a value the JSON may not hold; ``why`` says why."""

    __slots__ = ("why",)

    def __init__(self, why: str) -> None:
        self.why = why


class _Duplicate:
    """The key of a dict that marks an object which gave a key twice (the value: that key)."""


DUPLICATE = _Duplicate()


def _bad_constant(name: str) -> Bad:
    return Bad(f"{name} is not a JSON number (JSON has no NaN or Infinity)")


def _float(text: str) -> float | Bad:
    value = float(text)
    if math.isinf(value):
        return Bad(f"the number {text[:20]}{'…' if len(text) > 20 else ''} is too large "
                   "to be read as a number")
    return value


def _int(text: str) -> int | Bad:
    if len(text) - (text[0] == "-") > INT_DIGITS:
        return Bad(f"a number with {len(text):,} digits: numbers have at most "
                   f"{INT_DIGITS:,} digits")
    return int(text)


PairsHook = Callable[[list[tuple[str, Any]]], Any]


def checked_dict(pairs: list[tuple[str, Any]], flags: dict[str, bool]) -> dict[Any, Any]:
    """The dict of one JSON object's ``pairs``; a key given twice is marked in it (under
    ``DUPLICATE``) and flagged (``flags["bad"] = True``) for :func:`parse` to report."""
    out: dict[Any, Any] = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                out[DUPLICATE] = key
                break
            seen.add(key)
        flags["bad"] = True
    return out


def plain_pairs(flags: dict[str, bool]) -> PairsHook:
    """The default ``object_pairs_hook`` maker: dicts, through :func:`checked_dict`."""

    def hook(pairs: list[tuple[str, Any]]) -> dict[Any, Any]:
        return checked_dict(pairs, flags)

    return hook


@contextlib.contextmanager
def deep(levels: int) -> Iterator[None]:
    """Let the C JSON parser and encoder (which recurse) go ``levels`` deeper than here."""
    here = 0
    frame = sys._getframe()
    while frame is not None:
        here += 1
        frame = frame.f_back  # type: ignore[assignment]
    old = sys.getrecursionlimit()
    needed = here + levels + 50
    if needed > old:
        sys.setrecursionlimit(needed)
    try:
        yield
    finally:
        if needed > old:
            sys.setrecursionlimit(old)


def parse(text: str | bytes, file: str | None = None, max_nesting: int = 4000,
          pairs_hook: Callable[[dict[str, bool]], PairsHook] = plain_pairs,
          on_nesting: Callable[[], Exception] | None = None) -> Any:
    """Parse ``text`` as standard JSON (see the module's docstring); raise ReplayError.

    ``pairs_hook(flags)`` makes the ``object_pairs_hook`` (which must mark a key given twice
    and set ``flags["bad"]``, as :func:`plain_pairs` does); ``on_nesting`` makes the error
    for JSON nested deeper than ``max_nesting`` (the exact depth is for the caller to
    check: the parser stops a few levels beyond it).
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as err:
            raise ReplayError(f"not UTF-8 text: byte {err.start} cannot be read",
                              file=file) from None
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte-order mark some editors write
    state = {"bad": False}

    def constant(name: str) -> Bad:
        state["bad"] = True
        return _bad_constant(name)

    def number(text: str) -> int | Bad:
        value = _int(text)
        if isinstance(value, Bad):
            state["bad"] = True
        return value

    def real(text: str) -> float | Bad:
        value = _float(text)
        if isinstance(value, Bad):
            state["bad"] = True
        return value

    try:
        with deep(max_nesting):
            data = json.loads(text, object_pairs_hook=pairs_hook(state),
                              parse_constant=constant,
                              parse_int=number, parse_float=real)
    except json.JSONDecodeError as err:
        raise ReplayError(f"not valid JSON: {err.msg} at line {err.lineno} column {err.colno}",
                          file=file) from None
    except RecursionError:
        if on_nesting is not None:
            raise on_nesting() from None
        raise ReplayError(f"the JSON is nested more than {max_nesting} deep",
                          file=file) from None
    surrogates = ("\\u" in text and _LONE_ESCAPE.search(text) is not None) or (
        not text.isascii() and _RAW_SURROGATE.search(text) is not None)
    if state["bad"] or surrogates:
        problem = find(data, _problem)
        if problem is not None:
            path, why = problem
            raise ReplayError(why, file=file, path=path)
    return data


def _problem(value: Any) -> str | None:
    """Why ``value`` (a node of parsed data) cannot stay, or None."""
    if isinstance(value, Bad):
        return value.why
    if isinstance(value, str):
        return lone_surrogate(value)
    if isinstance(value, dict) and DUPLICATE in value:
        return f"the key {value[DUPLICATE]!r} is given twice in this object"
    return None


def lone_surrogate(text: str) -> str | None:
    """Why ``text`` cannot be written as UTF-8 (a lone surrogate), or None."""
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        return (f"the text holds a lone surrogate (U+{ord(text[err.start]):04X}), which "
                "is not a character and cannot be saved")
    return None


def children(value: Any) -> Iterator[tuple[str, Any]]:
    """The (JSON path step, child) pairs of a node; objects with ``to_dict`` are walked as
    that dict; a dict's keys are checked too (as the node ``<key>``)."""
    if isinstance(value, dict):
        for key, child in value.items():
            if key is DUPLICATE:
                continue
            yield _key_step(key), key
            yield _key_step(key), child
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield f"[{i}]", child
    elif hasattr(value, "json_items"):
        yield from value.json_items()


def _key_step(key: Any) -> str:
    if isinstance(key, str) and key.isidentifier() and key.isascii():
        return f".{key}"
    return f"[{json.dumps(key, ensure_ascii=True) if isinstance(key, str) else repr(key)}]"


def find(data: Any, test: Callable[[Any], str | None], root: str = "$"
         ) -> tuple[str, str] | None:
    """The JSON path and reason of the first node (depth first) for which ``test`` gives a
    reason, or None. Iterative: any depth."""
    stack: list[tuple[str, Any]] = [(root, data)]
    while stack:
        path, value = stack.pop()
        why = test(value)
        if why is not None:
            return path, why
        kids = list(children(value))
        for step, child in reversed(kids):
            stack.append((path + step, child))
    return None


def depth(value: Any) -> int:
    """How deep JSON containers nest in ``value``: 0 for a scalar, 1 for ``[]``."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict):
            level += 1
            stack.extend((child, level) for child in node.values())
        elif isinstance(node, list):
            level += 1
            stack.extend((child, level) for child in node)
        if level > deepest:
            deepest = level
    return deepest


def copy(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, scalars), at any depth."""
    if not isinstance(value, (dict, list)):
        return value
    root: Any = {} if isinstance(value, dict) else []
    stack = [(value, root)]
    while stack:
        source, target = stack.pop()
        items = source.items() if isinstance(source, dict) else enumerate(source)
        for key, child in items:
            if isinstance(child, (dict, list)):
                twin: Any = {} if isinstance(child, dict) else []
                stack.append((child, twin))
            else:
                twin = child
            if isinstance(target, dict):
                target[key] = twin
            else:
                target.append(twin)
    return root


def equal(a: Any, b: Any) -> bool:
    """``a == b`` for JSON data, at any depth (Python's own ``==`` recurses).

    >>> equal({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2}]}), equal([[1]], [[2]])
    (True, False)
    """
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if isinstance(x, dict) and isinstance(y, dict):
            if x.keys() != y.keys():
                return False
            stack.extend((x[key], y[key]) for key in x)
        elif isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y, strict=True))
        elif isinstance(x, (dict, list)) or isinstance(y, (dict, list)):
            return False
        elif x != y:
            return False
    return True


def dumps(value: Any, nesting: int = 4000, **options: Any) -> str:
    """``json.dumps`` that refuses NaN and goes as deep as ``nesting``."""
    with deep(nesting):
        return json.dumps(value, allow_nan=False, **options)

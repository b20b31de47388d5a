"""JSON as the standard defines it, read and walked without meeting Python's limits.

:func:`parse` reads a JSON text and refuses what the standard does not allow or what could
not be written back: ``NaN`` and ``Infinity``, a number too large for a float, an integer
with more digits than Python reads (4,300), a key given twice in one object, and a lone
surrogate (``"\\ud800"``), which no UTF-8 file can hold. Each refusal is a
:class:`~cardlab.errors.ReplayError` with the JSON path of the value. Deep nesting is allowed
up to ``max_nesting`` and refused beyond it. Nothing here recurses or changes the process's
recursion limit: JSON nested deeper than Python's C parser and encoder go is read and written
level by level (:func:`parse`, :func:`dumps`), and the walkers (:func:`depth`, :func:`copy`,
:func:`find`, :func:`equal`) are iterative, so no depth meets Python's recursion limit.

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

    decoder = json.JSONDecoder(object_pairs_hook=pairs_hook(state), parse_constant=constant,
                               parse_int=number, parse_float=real)

    def too_deep() -> Exception:
        if on_nesting is not None:
            return on_nesting()
        return ReplayError(f"the JSON is nested more than {max_nesting} deep", file=file)

    try:
        data = _decode(text, decoder, max_nesting, too_deep)
    except json.JSONDecodeError as err:
        raise ReplayError(f"not valid JSON: {err.msg} at line {err.lineno} column {err.colno}",
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


def dumps(value: Any, *, ensure_ascii: bool = True,
          separators: tuple[str, str] = (", ", ": ")) -> str:
    """``json.dumps(value, allow_nan=False, ...)`` at any depth: a ValueError for NaN or an
    infinity, the same text as ``json.dumps`` otherwise.

    >>> deep = []
    >>> for _ in range(100_000):
    ...     deep = [deep]
    >>> text = dumps(deep)
    >>> len(text), text[:3], dumps(parse(text, max_nesting=100_001)) == text
    (200002, '[[[', True)
    """
    return encoder(ensure_ascii=ensure_ascii, separators=separators)(value)


# -- any depth without the process's recursion limit ----------------------------------------
#
# Python's C JSON parser and encoder recurse, one C call per level, and stop with a
# RecursionError at Python's recursion limit (3.10, 3.11) or at the interpreter's own C
# recursion limit (3.12: about 1,500 levels, 3.13: about 10,000). A library may not raise the
# process's limit, so JSON nested deeper than the C code can go is read and written here
# without recursion: ordinary files take the C path alone, as fast as ever; a file the C path
# refuses as too deep is pre-scanned for its deep arrays and objects, which are then parsed
# one level at a time, every shallow part of it still by the C scanner.

SHALLOW = 100  # a part nested at most this deep goes to the C scanner in a deep file
# Up to this recursion limit the C code stops with a RecursionError before it runs out of
# C stack (50,000 levels are safe on an 8 MB stack; 100,000 are not): with a higher limit
# (a user may raise it), text that could nest deeper than SHALLOW skips the C path.
C_SAFE_RECURSION_LIMIT = 50_000
_WHITESPACE = re.compile(r"[ \t\n\r]*")
# A JSON string or one bracket: the pre-scan of a deep file (strings may hold brackets).
_STRUCTURE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.S)
_END: Any = object()
_SPACES = (" ", "\t", "\n", "\r")  # JSON's white space (not "": a tuple, not a string)
_OPENERS = ("[", "{")
_TRAILING_COMMA = sys.version_info >= (3, 13)  # its own message for "[1,]" since 3.13


def _skip(text: str, at: int) -> int:
    """The offset of the first character at or after ``at`` that is not white space."""
    match = _WHITESPACE.match(text, at)
    assert match is not None  # the pattern matches the empty string
    return match.end()


def _c_is_safe() -> bool:
    """Whether Python's C JSON code stops at a RecursionError in this process, however deep."""
    return sys.version_info >= (3, 12) or sys.getrecursionlimit() <= C_SAFE_RECURSION_LIMIT


def _decode(text: str, decoder: json.JSONDecoder, max_nesting: int,
            too_deep: Callable[[], Exception]) -> Any:
    """``decoder.decode(text)`` at any depth, never deeper than ``max_nesting`` levels plus
    :data:`SHALLOW` (the caller checks the exact depth), and never touching the recursion
    limit."""
    if _c_is_safe() or text.count("[") + text.count("{") <= SHALLOW:
        try:
            return decoder.decode(text)
        except RecursionError:
            pass  # nested deeper than the C parser goes here: parse the deep parts below
    return _decode_deep(text, decoder, _deep_parts(text, max_nesting), max_nesting, too_deep)


def _deep_parts(text: str, max_nesting: int | None = None) -> set[int]:
    """The offsets of the arrays and objects of ``text`` that hold more than
    :data:`SHALLOW` levels (one that is never closed counts as deep). The scan stops where
    the nesting passes ``max_nesting``: parsing stops there too, or earlier."""
    deep: set[int] = set()
    opened: list[int] = []  # offsets of the open arrays and objects
    below: list[int] = []  # for each open one: the most levels a closed child holds
    for match in _STRUCTURE.finditer(text):
        at = match.start()
        char = text[at]
        if char == '"':
            continue
        if char in _OPENERS:
            opened.append(at)
            below.append(0)
            if max_nesting is not None and len(opened) > max_nesting:
                break
        elif opened:
            levels = below.pop() + 1
            start = opened.pop()
            if levels > SHALLOW:
                deep.add(start)
            if below and below[-1] < levels:
                below[-1] = levels
    deep.update(opened)
    return deep


def _decode_deep(text: str, decoder: json.JSONDecoder, deep: set[int], max_nesting: int,
                 too_deep: Callable[[], Exception]) -> Any:
    """:meth:`json.JSONDecoder.decode` of ``text``, with the arrays and objects at the offsets
    ``deep`` parsed level by level (an explicit stack); every other value goes to the
    decoder's C scanner, which sees at most :data:`SHALLOW` levels of it. Errors are
    ``json.JSONDecodeError`` with the messages of Python's own parser."""
    scan_once, strict = decoder.scan_once, decoder.strict  # type: ignore[attr-defined]
    pairs_hook = decoder.object_pairs_hook
    assert pairs_hook is not None
    scan_string = json.decoder.scanstring  # type: ignore[attr-defined]
    blank = _WHITESPACE.match
    spaces = _SPACES
    error = json.JSONDecodeError
    stack: list[tuple[list[Any], bool]] = []  # the open containers: (items, is an object)
    keys: list[str] = []  # the key of each open object's value being read
    at = _skip(text, 0)
    while True:
        # -- a value starts at ``at``; a key (of an open object) starts at ``at`` when ``key``
        char = text[at:at + 1]
        value: Any = _END
        if char in _OPENERS and at in deep:
            if len(stack) >= max_nesting:
                raise too_deep()
            at += 1
            if text[at:at + 1] in spaces:
                at = blank(text, at).end()  # type: ignore[union-attr]
            nxt = text[at:at + 1]
            if char == "[":
                if nxt != "]":
                    stack.append(([], False))
                    continue
                value, at = [], at + 1
            elif nxt == "}":
                value, at = pairs_hook([]), at + 1
            elif nxt != '"':
                raise error("Expecting property name enclosed in double quotes", text, at)
            else:
                stack.append(([], True))
                at = _key(text, at, strict, keys, scan_string)
                continue
        else:
            try:
                value, at = scan_once(text, at)
            except StopIteration as err:
                raise error("Expecting value", text, err.value) from None
            except RecursionError:
                if char not in _OPENERS:
                    raise
                deep.add(at)  # deeper than the C scanner goes here after all
                continue
        # -- a value is complete: it joins the container it is in, which may close in turn
        while True:
            if not stack:
                end = _skip(text, at)
                if end != len(text):
                    raise error("Extra data", text, end)
                return value
            items, is_object = stack[-1]
            items.append((keys.pop(), value) if is_object else value)
            if text[at:at + 1] in spaces:
                at = blank(text, at).end()  # type: ignore[union-attr]
            char = text[at:at + 1]
            at += 1
            if char == ("}" if is_object else "]"):
                stack.pop()
                value = pairs_hook(items) if is_object else items
                continue
            if char != ",":
                raise error("Expecting ',' delimiter", text, at - 1)
            comma = at - 1
            if text[at:at + 1] in spaces:
                at = blank(text, at).end()  # type: ignore[union-attr]
            if _TRAILING_COMMA and text[at:at + 1] == ("}" if is_object else "]"):
                raise error("Illegal trailing comma before end of "
                            + ("object" if is_object else "array"), text, comma)
            if is_object:
                if text[at:at + 1] != '"':
                    raise error("Expecting property name enclosed in double quotes", text,
                                at)
                at = _key(text, at, strict, keys, scan_string)
            break


def _key(text: str, at: int, strict: bool, keys: list[str],
         scan_string: Callable[[str, int, bool], tuple[str, int]]) -> int:
    """Read the key at ``at`` (its opening quote) and its colon onto ``keys``; the offset of
    the value after it."""
    key, at = scan_string(text, at + 1, strict)
    keys.append(key)
    if text[at:at + 1] != ":":
        at = _skip(text, at)
        if text[at:at + 1] != ":":
            raise json.JSONDecodeError("Expecting ':' delimiter", text, at)
    at += 1
    if text[at:at + 1] in _SPACES:
        at = _skip(text, at)
    return at


def encoder(*, ensure_ascii: bool = True, separators: tuple[str, str] = (", ", ": ")
            ) -> Callable[[Any], str]:
    """``json.JSONEncoder(allow_nan=False, ...).encode`` at any depth: the C encoder, and for
    data nested deeper than it goes, an encoder with an explicit stack (the same text)."""
    fast = json.JSONEncoder(ensure_ascii=ensure_ascii, separators=separators,
                            allow_nan=False).encode

    def encode(value: Any) -> str:
        if _c_is_safe():
            try:
                return fast(value)
            except RecursionError:
                pass
        return _encode(value, ensure_ascii, separators)

    return encode


def _encode(value: Any, ensure_ascii: bool, separators: tuple[str, str]) -> str:
    """What ``json.dumps(value, allow_nan=False, ensure_ascii=..., separators=...)`` writes,
    without recursion."""
    item_sep, key_sep = separators
    quote = json.encoder.encode_basestring_ascii if ensure_ascii \
        else json.encoder.encode_basestring  # type: ignore[attr-defined]
    out: list[str] = []
    # the open containers: (their items, is an object, id, [no item written yet])
    stack: list[tuple[Iterator[Any], bool, int, list[bool]]] = []
    open_ids: set[int] = set()
    while True:
        if isinstance(value, str):
            out.append(quote(value))
        elif value is None:
            out.append("null")
        elif value is True:
            out.append("true")
        elif value is False:
            out.append("false")
        elif isinstance(value, int):
            out.append(int.__repr__(value))
        elif isinstance(value, float):
            out.append(_float_text(value))
        elif isinstance(value, (list, tuple, dict)):
            is_object = isinstance(value, dict)
            if not value:
                out.append("{}" if is_object else "[]")
            else:
                if id(value) in open_ids:
                    raise ValueError("Circular reference detected")
                open_ids.add(id(value))
                out.append("{" if is_object else "[")
                items = iter(value.items()) if is_object else iter(value)  # type: ignore
                stack.append((items, is_object, id(value), [True]))
        else:
            raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
        while stack:  # the next value to write, closing the containers that are done
            items, is_object, ident, first = stack[-1]
            item = next(items, _END)
            if item is _END:
                out.append("}" if is_object else "]")
                open_ids.discard(ident)
                stack.pop()
                continue
            sep = "" if first[0] else item_sep
            first[0] = False
            if is_object:
                key, value = item
                out.append(f"{sep}{quote(_key_text(key))}{key_sep}")
            else:
                value = item
                if sep:
                    out.append(sep)
            break
        else:
            return "".join(out)


def _float_text(value: float) -> str:
    if not math.isfinite(value):
        raise ValueError(f"Out of range float values are not JSON compliant: {value!r}")
    return float.__repr__(value)


def _key_text(key: Any) -> str:
    """A key as ``json.dumps`` writes it (it turns numbers, booleans and None into text)."""
    if isinstance(key, str):
        return key
    if key is True or key is False or key is None:
        return {True: "true", False: "false", None: "null"}[key]
    if isinstance(key, int):
        return int.__repr__(key)
    if isinstance(key, float):
        return _float_text(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")

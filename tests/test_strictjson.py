"""Deep JSON without touching the process's recursion limit (issue 18, point 2).

cardlab.strictjson reads and writes JSON nested deeper than Python's C parser and encoder go
(they recurse) level by level, so a legal file at the depth limits loads and saves while
``sys.setrecursionlimit`` is never called; the level-by-level parser and encoder give the same
data, the same text and the same error messages as Python's own.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

import pytest
from fuzzing import hat_chain
from hypothesis import given, settings
from hypothesis import strategies as st

import cardlab
from cardlab import strictjson
from cardlab.limits import DEFAULT_LIMITS, NESTING_CEILING, Limits


@pytest.fixture
def recursion_limit_is_never_set(monkeypatch):
    """``sys.setrecursionlimit`` raises; the limit is the same before and after."""
    before = sys.getrecursionlimit()

    def refuse(limit: int) -> None:
        raise AssertionError(f"sys.setrecursionlimit({limit}) was called")

    monkeypatch.setattr(sys, "setrecursionlimit", refuse)
    yield
    assert sys.getrecursionlimit() == before


def test_a_chain_of_variations_at_the_depth_limit_loads_and_saves(
        tmp_path, recursion_limit_is_never_set):
    depth = DEFAULT_LIMITS.max_variation_depth
    replay = hat_chain(depth)
    path = tmp_path / "deep.json"
    replay.save(path)  # nested 3 levels per variation: deeper than the C encoder goes
    text = path.read_text(encoding="utf-8")
    assert strictjson.depth(strictjson.parse(text)) == 3 * depth + 5
    again = cardlab.load(path)
    assert again.to_json() == text
    assert again.variation_paths(1)[-1] == ((0, 0),) * depth
    assert again.line(1, ((0, 0),) * 995)[0].note == {"en": "level 995"}
    with pytest.raises(cardlab.LimitError, match="max_variation_depth"):
        cardlab.loads(hat_chain(depth + 1).to_json())


@pytest.mark.parametrize("nesting", [DEFAULT_LIMITS.max_nesting, NESTING_CEILING])
def test_json_at_the_nesting_limit_loads_and_saves(nesting, tmp_path,
                                                  recursion_limit_is_never_set):
    base = hat_chain(1).to_json()
    meta = '{"deep": ' + "[" * (nesting - 2) + '"x"' + "]" * (nesting - 2) + "}"
    text = base.replace('"hands": [', f'"meta": {meta}, "hands": [', 1)
    limits = Limits(max_nesting=nesting)
    replay = cardlab.loads(text, limits=limits)
    path = tmp_path / "deep.json"
    replay.save(path)
    again = cardlab.load(path, limits=limits)
    assert again == replay and again.to_json() == replay.to_json()
    assert strictjson.depth(again.meta) == nesting - 1
    with pytest.raises(cardlab.LimitError, match="max_nesting"):
        cardlab.loads(text.replace('"x"', '["x"]', 1), limits=limits)
    with pytest.raises(cardlab.LimitError, match="max_nesting"):  # and far beyond it
        cardlab.loads(text.replace('"x"', "[" * 200_000 + "]" * 200_000, 1), limits=limits)


def documents() -> st.SearchStrategy[Any]:
    scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8),
                        st.floats(allow_nan=False, allow_infinity=False))
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=4)),
        max_leaves=30)


def deep_everywhere(text: str) -> set[int]:
    """Every array and object of ``text`` (strings aside): the level-by-level parser then
    parses all of it itself."""
    out: set[int] = set()
    for match in strictjson._STRUCTURE.finditer(text):
        if text[match.start()] in "[{":
            out.add(match.start())
    return out


def decode_deep(text: str, deep: set[int] | None = None) -> Any:
    decoder = json.JSONDecoder(object_pairs_hook=dict)
    return strictjson._decode_deep(text, decoder, deep_everywhere(text) if deep is None
                                   else deep, 10**6, lambda: AssertionError("too deep"))


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(documents(), st.sampled_from([(",", ":"), (", ", ": ")]), st.booleans(),
       st.sampled_from([None, 1]))
def test_the_level_by_level_parser_and_encoder_agree_with_pythons(doc, separators, ascii_only,
                                                                  indent):
    text = json.dumps(doc, separators=separators, ensure_ascii=ascii_only, indent=indent)
    for deep in (None, set()):  # all of it level by level; or all of it by the C scanner
        assert strictjson.equal(decode_deep(text, deep), json.loads(text))
    assert strictjson._encode(doc, ascii_only, separators) == json.dumps(
        doc, separators=separators, ensure_ascii=ascii_only)


@pytest.mark.parametrize("text", [
    "[1,", "[1 2]", '{"a" 1}', '{"a":1,}', "[1,]", "{1:2}", "[", "{", '["x', "[1]x", "", " ",
    '{"a":}', "[tru]", '{"a":1 "b":2}', "[\x01]", '["\x01"]', '[1, ]', '{"a": [1}', "[[]]]",
])
def test_the_level_by_level_parser_fails_as_pythons_does(text):
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(text, object_pairs_hook=dict)
    with pytest.raises(json.JSONDecodeError) as caught:
        decode_deep(text)
    assert (caught.value.msg, caught.value.pos) == (expected.value.msg, expected.value.pos)


def test_a_deep_file_is_parsed_by_the_c_scanner_except_its_deep_parts():
    rng = random.Random(3)
    shallow = [{"seat": "Ann", "act": f"play {rng.randrange(99)}", "n": [rng.random()]}
               for _ in range(50)]
    deep: Any = shallow
    for _ in range(3 * strictjson.SHALLOW):
        deep = [deep, shallow]
    text = json.dumps({"deep": deep, "flat": shallow})
    parts = strictjson._deep_parts(text)
    # ``shallow`` holds 3 levels, each wrap one more; the object around it all one more
    wraps = 3 * strictjson.SHALLOW
    assert len(parts) == sum(3 + k > strictjson.SHALLOW for k in range(1, wraps + 1)) + 1
    assert text.index("[") in parts and text.index('{"seat"') not in parts
    assert strictjson.equal(decode_deep(text, parts), json.loads(text))


def test_encoding_refuses_what_json_refuses():
    deep: Any = [float("nan")]
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(ValueError, match="not JSON compliant"):
        strictjson.dumps(deep)
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular"):
        strictjson._encode(loop, True, (",", ":"))
    with pytest.raises(TypeError, match="not JSON serializable"):
        strictjson._encode([{1}], True, (",", ":"))
    assert strictjson._encode({1: [True], None: 2.5, False: "é"}, True, (",", ":")) == \
        json.dumps({1: [True], None: 2.5, False: "é"}, separators=(",", ":"))


def test_with_a_raised_recursion_limit_deep_text_skips_the_c_path(monkeypatch):
    """Past C_SAFE_RECURSION_LIMIT the C code could run out of stack before Python stops it
    (3.10, 3.11): then text that may nest deep is parsed level by level, to the same data."""
    monkeypatch.setattr(strictjson, "_c_is_safe", lambda: False)
    replay = hat_chain(50)
    text = replay.to_json()
    assert cardlab.loads(text).to_json() == text
    deep = "[" * 20_000 + "]" * 20_000
    assert strictjson.dumps(strictjson.parse(deep, max_nesting=20_000),
                            separators=(",", ":")) == deep

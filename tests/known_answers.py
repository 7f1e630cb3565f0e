"""Loaders for the external known-answer files in ``tests/data/`` and the regulation texts in
``docs/regulations/``.

The known-answer files come from unrelated public projects (``tests/data/README.md``: sources and
licenses); both folders live in the repository, so a clone needs nothing beside it.
"""

from __future__ import annotations

import csv
import itertools
import json
import re
from collections.abc import Callable, Hashable, Iterable
from functools import cache
from pathlib import Path
from typing import Any

_REPO = Path(__file__).resolve().parents[1]
TESTDATA = _REPO / "tests" / "data"
REGULATIONS = _REPO / "docs" / "regulations"

_LINE_COMMENT = re.compile(r"^\s*//.*$", re.MULTILINE)
_TRAILING_COMMA = re.compile(r",\s*([\]}])")


def load_jsonc(name: str) -> list[Any]:
    """A ``.jsonc`` file: ``//`` comment lines and trailing commas removed."""
    text = (TESTDATA / name).read_text()
    text = _TRAILING_COMMA.sub(r"\1", _LINE_COMMENT.sub("", text))
    data = json.loads(text)
    assert isinstance(data, list)
    return data


@cache
def five_card_rows() -> list[list[Any]]:
    """``[hand, high, 2-7 low, A-5 low, A-6 low, badugi]`` per row; 1 = best."""
    return load_jsonc("five-card-hands-100k.jsonc")


@cache
def seven_card_rows() -> list[list[Any]]:
    """``[seven cards, high class (1 = best), best five]`` per row."""
    return load_jsonc("seven-card-hands-100k.jsonc")


@cache
def omaha_rows() -> list[dict[str, str]]:
    """``card_1..card_5`` board, ``card_6..card_10`` hole, ``rank`` (1 = best)."""
    with (TESTDATA / "omaha5-high-1000.csv").open(newline="") as f:
        return list(csv.DictReader(f))


def split_compact(text: str) -> list[str]:
    """``"6h9s4s5h3c"`` -> ``["6h", "9s", "4s", "5h", "3c"]``."""
    return [text[i : i + 2] for i in range(0, len(text), 2)]


def assert_same_order(
    rows: Iterable[tuple[int, Hashable]], what: str, better: Callable[[Any, Any], bool] | None = None
) -> int:
    """Check that our values order the rows exactly as the file's classes do.

    ``rows`` gives ``(file_class, our_value)``; a lower class is a better hand
    and a greater value of ours is a better hand. Each class must map to one
    value of ours and each value to one class (equal hands are the same class),
    and the values must strictly fall as the class rises. Returns the number
    of classes seen.
    """
    by_class: dict[int, set[Hashable]] = {}
    by_value: dict[Hashable, set[int]] = {}
    for cls, value in rows:
        by_class.setdefault(cls, set()).add(value)
        by_value.setdefault(value, set()).add(cls)
    split = {c: v for c, v in by_class.items() if len(v) > 1}
    assert not split, (
        f"{what}: one class of the file gets different values of ours: {list(split.items())[:3]}"
    )
    merged = {v: c for v, c in by_value.items() if len(c) > 1}
    assert not merged, (
        f"{what}: one value of ours covers several classes of the file: {list(merged.items())[:3]}"
    )
    ranked = [(c, next(iter(by_class[c]))) for c in sorted(by_class)]
    for (c1, v1), (c2, v2) in itertools.pairwise(ranked):
        ok = better(v1, v2) if better else v1 > v2  # type: ignore[operator]
        assert ok, f"{what}: file class {c1} is better than {c2}, but ours says {v1!r} vs {v2!r}"
    return len(ranked)

"""The one error of the wire: a message or topic that cannot be read, naming the field."""

from __future__ import annotations

from typing import Final

#: The longest value an error quotes, the longest field path and the longest problem it says: a
#: hostile message's megabyte string never reaches a log line or a refusal whole.
MAX_SHOWN: Final = 60
MAX_FIELD: Final = 120
MAX_PROBLEM: Final = 600


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, marked with an ellipsis where it was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shown(value: object) -> str:
    """A value as an error quotes it: its ``repr``, at most :data:`MAX_SHOWN` characters."""
    if isinstance(value, (dict, list)):
        return f"a JSON {'object' if isinstance(value, dict) else 'array'} of {len(value)}"
    try:
        text = repr(value)
    except ValueError:  # an integer too long to print (sys.get_int_max_str_digits)
        return "a number too long to print"
    return clip(text, MAX_SHOWN)


class WireError(ValueError):
    """A message or topic that is not on the wire's schema.

    ``field`` is the dotted path of what is wrong (``"payload.wagered"``), ``""`` for the whole
    message; the text names it, the value and what was expected, each bounded in length.
    """

    def __init__(self, field: str, problem: str) -> None:
        self.field = clip(field, MAX_FIELD)
        self.problem = clip(problem, MAX_PROBLEM)
        super().__init__(f"{self.field}: {self.problem}" if self.field else self.problem)

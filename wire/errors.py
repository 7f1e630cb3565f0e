"""The one error of the wire: a message or topic that cannot be read, naming the field."""

from __future__ import annotations


class WireError(ValueError):
    """A message or topic that is not on the wire's schema.

    ``field`` is the dotted path of what is wrong (``"payload.wagered"``), ``""`` for the whole
    message; the text names it, the value and what was expected.
    """

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}" if field else problem)

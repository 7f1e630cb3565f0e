"""What a Rules Submission must give before its table may join the progressive link.

The central meter applies each progressive's rate of progression and checks the table's
declaration of it against its own link configuration (docs/progressive-link.md,
"Declaration"). Some texts make the rate optional (the text of § 659a.12(d) we have gives Fortune
Asia Poker's meter a reset amount and no rate), so a table that keeps its meter alone may leave it
out; a linked one may not. The daemon refuses to start linked without it (exit 78), naming the
Rules Submission's option and the section it is filed under.
"""

from __future__ import annotations

from ..rules.core.options import specs
from ..rules.core.submission import Submission
from ..table.game_hooks import progressives

RATE: str = "rate_of_progression"


def link_problems(submission: Submission) -> list[str]:
    """One line per progressive the Rules Submission offers without a rate of progression,
    naming its option (``progressive.rate_of_progression``) and that option's section."""
    sections = {spec.key: spec.section for _, spec in specs(type(submission.rules))}
    out: list[str] = []
    for p in progressives(submission):
        if p.rate_of_progression is not None:
            continue
        key = f"{p.name}.{RATE}"
        # The option's own section (where the rate is filed: § 601a.2 with the game's payout
        # section); the wager's where a game declares no such option.
        section = sections.get(key, p.section)
        out.append(
            f"{key}: missing; a table on the progressive link must give the rate of progression of "
            f"its {p.title} in its Rules Submission ({section}): the central meter applies it and "
            "checks it against its link configuration"
        )
    return out

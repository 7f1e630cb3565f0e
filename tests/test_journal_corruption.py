"""Critical memory: bytes damaged on disk are refused with a clear message, or harmless; never silent.

A journal of real rounds (some in the main file, the last ones still in the ``-wal``, outbox
messages among them) is copied, damaged on disk, and opened as the daemon opens it:

- random bit flips in the main file and in the WAL;
- a torn WAL tail (cut at random lengths), a deleted WAL, an older copy of the file put back,
  a missing or damaged head marker.

Each image is classed *refused* (a :class:`JournalError` whose message names the file: the daemon
does not start), *harmless* (it opens, and every record, every outbox message and the state are
the original ones), or *silent* (it opens on altered or missing records): there must be no
silent one. The figures are in docs/journal.md ("Integrity").
"""

from __future__ import annotations

import asyncio
import random
import shutil
import sqlite3
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import pytest

from controller.journal import Journal, JournalCorrupt, JournalError, JournalReader, Outbound
from controller.journal.chain_key import key_path, load_key
from controller.journal.marker import SLOT, read_marker
from controller.journal.queries import read_snapshot, recover
from controller.journal.records import LockOut, Unlock
from controller.tablectl import EXIT_FAILED, EXIT_OK
from controller.tablectl import main as tablectl
from tests.test_journal import RECORDS, TABLE, deal, example

NAME: Final = "journal.sqlite3"
FLIPS: Final = 240
"""Bit flips per file in the default run (the slow variant flips many more)."""


@dataclass(frozen=True)
class Truth:
    """What the journal held when it was copied: every record, every outbox message, the state."""

    records: list[dict[str, object]]
    outbox: list[dict[str, object]]
    state: object


def files(directory: Path) -> dict[str, Path]:
    return {
        "main": directory / NAME,
        "wal": directory / f"{NAME}-wal",
        "head": directory / f"{NAME}.head",
        "key": key_path(directory / NAME, TABLE),
    }


async def _build(directory: Path, older: Path) -> None:
    path = directory / NAME
    async with await Journal.open(path, TABLE) as journal:
        for p in RECORDS[:6]:
            await deal(journal, example(p))
            await journal.append(LockOut("link lost"), source="link", outbox=[Outbound("status", {"up": 0})])
            await journal.append(Unlock("link back"), source="link", outbox=[Outbound("status", {"up": 1})])
    # Closed: those are checkpointed into the main file. Reopened: the next ones stay in the WAL.
    async with await Journal.open(path, TABLE) as journal:
        for p in RECORDS[6:8]:
            await deal(journal, example(p))
        for name, f in files(directory).items():
            if name != "head":
                shutil.copy(f, older / f.name)
        for p in RECORDS[8:12]:
            await deal(journal, example(p), settle=p != RECORDS[11])
            await journal.append(LockOut("link lost"), source="link", outbox=[Outbound("status", {"up": 0})])
        # Copied while open, the writer idle: the image a power cut leaves, its WAL unfolded.
        image = directory.parent / "image"
        image.mkdir()
        for f in files(directory).values():
            shutil.copy(f, image / f.name)


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Truth]:
    root = tmp_path_factory.mktemp("corruption")
    live, older = root / "live", root / "older"
    live.mkdir()
    older.mkdir()
    asyncio.run(_build(live, older))
    image = root / "image"
    assert files(image)["wal"].stat().st_size > 0 and files(image)["main"].stat().st_size > 0
    pristine = root / "pristine"
    shutil.copytree(image, pristine)
    with JournalReader(pristine / NAME, TABLE) as reader:
        truth = Truth(
            [r.to_json() for r in reader.records()],
            [m.envelope() for m in reader.outbox()],
            reader.recover(),
        )
    assert len(truth.records) > 100 and len(truth.outbox) > 10
    return image, older, truth


async def _open(directory: Path, truth: Truth) -> str:
    """``refused`` or ``harmless``; an assertion error if silent, the exception if unclear."""
    path = directory / NAME
    try:
        journal = await Journal.open(path, TABLE, create=False)
    except JournalError as exc:
        assert str(path) in str(exc) or path.name in str(exc), f"the refusal does not name the file: {exc}"
        return "refused"
    try:
        records = [r.to_json() for r in await journal.records()]
        state = journal.state
    finally:
        await journal.close()
    with JournalReader(path, TABLE) as reader:
        outbox = [m.envelope() for m in reader.outbox()]
    assert records == truth.records, "SILENT: opened on altered or missing records"
    assert outbox == truth.outbox, "SILENT: opened on an altered or missing outbox"
    assert state == truth.state, "SILENT: opened on another state"
    return "harmless"


def _fresh(image: Path, where: Path) -> Path:
    if where.exists():
        shutil.rmtree(where)
    shutil.copytree(image, where)
    return where


def _flip(path: Path, rng: random.Random) -> None:
    data = bytearray(path.read_bytes())
    at = rng.randrange(len(data))
    data[at] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))


def _flips(baseline: tuple[Path, Path, Truth], tmp_path: Path, which: str, n: int, seed: int) -> Counter[str]:
    image, _, truth = baseline
    rng = random.Random(seed)
    outcomes: Counter[str] = Counter()
    for _ in range(n):
        trial = _fresh(image, tmp_path / "trial")
        _flip(files(trial)[which], rng)
        outcomes[asyncio.run(_open(trial, truth))] += 1
    return outcomes


@pytest.mark.parametrize("which", ["main", "wal"])
def test_bit_flips_are_refused_or_harmless_never_silent(
    baseline: tuple[Path, Path, Truth], tmp_path: Path, which: str
) -> None:
    outcomes = _flips(baseline, tmp_path, which, FLIPS, seed=9)
    print(f"{which}: {FLIPS} flips: {dict(outcomes)}")
    assert sum(outcomes.values()) == FLIPS
    assert outcomes["refused"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("which", ["main", "wal"])
def test_many_bit_flips_are_refused_or_harmless_never_silent(
    baseline: tuple[Path, Path, Truth], tmp_path: Path, which: str
) -> None:
    outcomes = _flips(baseline, tmp_path, which, 2000, seed=1009)
    print(f"{which}: 2000 flips: {dict(outcomes)}")
    assert outcomes["refused"] > 0


def test_a_torn_wal_tail_is_refused(baseline: tuple[Path, Path, Truth], tmp_path: Path) -> None:
    image, _, truth = baseline
    size = files(image)["wal"].stat().st_size
    rng = random.Random(5)
    cuts = [size - 1, size - 4096, 32, 0, *(rng.randrange(32, size) for _ in range(40))]
    outcomes: Counter[str] = Counter()
    for cut in cuts:
        trial = _fresh(image, tmp_path / "trial")
        with open(files(trial)["wal"], "r+b") as f:
            f.truncate(cut)
        outcomes[asyncio.run(_open(trial, truth))] += 1
    print(f"torn WAL: {len(cuts)} cuts: {dict(outcomes)}")
    assert outcomes["refused"] == len(cuts)  # every cut loses committed records


def test_a_deleted_wal_is_refused_naming_what_was_lost(
    baseline: tuple[Path, Path, Truth], tmp_path: Path
) -> None:
    image, _, truth = baseline
    trial = _fresh(image, tmp_path / "trial")
    files(trial)["wal"].unlink()
    with pytest.raises(JournalCorrupt, match=r"seq \d+ was committed \(its head marker\)") as error:
        asyncio.run(Journal.open(trial / NAME, TABLE, create=False))
    assert f"seq {len(truth.records)} was committed" in str(error.value)
    assert "-wal" in str(error.value)


def test_an_older_copy_put_back_is_refused(baseline: tuple[Path, Path, Truth], tmp_path: Path) -> None:
    image, older, truth = baseline
    trial = _fresh(image, tmp_path / "trial")
    for name in ("main", "wal"):
        shutil.copy(files(older)[name], files(trial)[name])
    assert asyncio.run(_open(trial, truth)) == "refused"


def test_a_missing_or_damaged_marker_is_refused(baseline: tuple[Path, Path, Truth], tmp_path: Path) -> None:
    image, _, truth = baseline
    trial = _fresh(image, tmp_path / "trial")
    files(trial)["head"].unlink()
    with pytest.raises(JournalCorrupt, match=r"head marker .* is missing"):
        asyncio.run(Journal.open(trial / NAME, TABLE, create=False))
    trial = _fresh(image, tmp_path / "trial")
    files(trial)["head"].write_text('{"table": "CS-3", "seq": 12')
    with pytest.raises(JournalCorrupt, match="head marker is damaged"):
        asyncio.run(Journal.open(trial / NAME, TABLE, create=False))
    assert asyncio.run(_open(_fresh(image, tmp_path / "trial"), truth)) == "harmless"


def test_a_torn_marker_slot_falls_back_to_the_other(
    baseline: tuple[Path, Path, Truth], tmp_path: Path
) -> None:
    image, _, truth = baseline
    trial = _fresh(image, tmp_path / "trial")
    head = files(trial)["head"]
    key = load_key(files(trial)["key"], TABLE)
    newest = read_marker(trial / NAME, key)
    assert newest is not None and newest.head.seq == len(truth.records)
    data = bytearray(head.read_bytes())
    slot = next(at for at in (0, SLOT) if f'"seq":{newest.head.seq},'.encode() in data[at : at + SLOT])
    data[slot + 20] ^= 0x01  # the slot being written when the power went
    head.write_bytes(bytes(data))
    older = read_marker(trial / NAME, key)
    assert older is not None and older.head.seq < newest.head.seq  # behind the journal: allowed
    assert asyncio.run(_open(trial, truth)) == "harmless"


def test_the_pristine_image_opens_as_an_unclean_shutdown(
    baseline: tuple[Path, Path, Truth], tmp_path: Path
) -> None:
    image = baseline[0]

    async def both() -> tuple[str, str]:
        trial = _fresh(image, tmp_path / "trial")
        journal = await Journal.open(trial / NAME, TABLE, create=False)
        first = journal.previous_shutdown
        await journal.close()
        journal = await Journal.open(trial / NAME, TABLE, create=False)
        second = journal.previous_shutdown
        await journal.close()
        return first, second

    # Copied while open: as a power cut leaves it. Closed by the daemon: clean.
    assert asyncio.run(both()) == ("unclean", "clean")


def test_tablectl_journal_verify_names_the_first_bad_seq(
    baseline: tuple[Path, Path, Truth], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image, _, truth = baseline
    trial = _fresh(image, tmp_path / "trial")
    assert tablectl(["journal", "verify", "--journal", str(trial / NAME)]) == EXIT_OK
    out = capsys.readouterr().out
    keyed = "the keyed hash chain (HMAC-SHA256, the table's chain key) whole from seq 1"
    assert f"{len(truth.records)} record(s), {keyed}" in out
    conn = sqlite3.connect(trial / NAME, isolation_level=None)
    conn.execute("DROP TRIGGER events_never_change")
    conn.execute("UPDATE events SET body = json_set(body, '$.amount', '5000.00') WHERE seq = 40")
    conn.close()
    assert tablectl(["journal", "verify", "--journal", str(trial / NAME)]) == EXIT_FAILED
    err = capsys.readouterr().err
    assert "journal refused" in err and "seq 40: the record's hash does not match" in err
    assert "Traceback" not in err


class _DamagedPage:
    """A connection on a damaged page: every read fails, and so does the ``COMMIT`` after it."""

    in_transaction = False

    def execute(self, sql: str, params: object = ()) -> _DamagedPage:
        if sql != "BEGIN":
            raise sqlite3.DatabaseError("database disk image is malformed")
        self.in_transaction = True
        return self

    def fetchall(self) -> list[object]:
        return []


def test_a_damaged_page_gives_the_clear_error_not_sqlites(tmp_path: Path) -> None:
    path = tmp_path / NAME
    with pytest.raises(JournalCorrupt, match=f"{path}: cannot read the journal: database disk image"):
        recover(_DamagedPage(), path, TABLE)  # type: ignore[arg-type]
    with pytest.raises(JournalCorrupt), read_snapshot(_DamagedPage(), path):  # type: ignore[arg-type]
        raise JournalCorrupt("a read failed")

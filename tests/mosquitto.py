"""A real Mosquitto for the tests: ``sim/mosquitto.py`` (the bench rig starts the same broker);
here a missing tool fails the test, saying what to run."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim import mosquitto
from sim.mosquitto import EXAMPLES, USERS, Broker, MissingTool, Pki, free_port

__all__ = ["EXAMPLES", "REPO", "USERS", "Broker", "MissingTool", "Pki", "free_port", "tool"]

REPO = Path(__file__).resolve().parents[1]


def tool(name: str) -> str:
    """The tool's path; a missing one fails the test with what to run."""
    try:
        return mosquitto.tool(name)
    except MissingTool as exc:
        pytest.fail(str(exc))

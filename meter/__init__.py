"""progressive-meter: the central progressive meter of a link of casino tables (docs/meter.md)."""

__version__ = "0.1.0"

"""The dealer's Kivy touchscreen: a client of the daemon's local API only.

See ``docs/architecture.md``.
"""

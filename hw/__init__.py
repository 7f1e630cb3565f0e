"""Table hardware: gpiozero devices (lock-out button, progressive wager sensors,
lamps) and the serial devices (dealing shoe, shuffler, hole-card reader).

Turns edges and frames into events; knows nothing of the rules. See
``docs/architecture.md``; the devices arrive with the daemon.
"""

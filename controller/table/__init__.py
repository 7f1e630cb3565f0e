"""The daemon's parts around the journal (docs/daemon.md, "The parts").

:mod:`.bridge` (hardware events in), :mod:`.service` (rounds and settlement), :mod:`.lamps` (the
payout lamps, a pure function of the state), :mod:`.table_api` (the local API's commands),
:mod:`.status` (the state as the API shows it), :mod:`.game_hooks` (what the table asks of the
game) and :mod:`.refusals`; :mod:`controller.daemon` builds them and starts and stops them.
"""

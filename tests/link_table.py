"""The link's stand-in tables and the meter's setup, for the tests: the same pieces the bench
uses (``sim/link_table.py``, ``sim/link_rig.py``)."""

from sim.link_rig import LINK, PARAMS, PROGRESSIVE, meter_config, meter_process
from sim.link_table import SimTable

__all__ = ["LINK", "PARAMS", "PROGRESSIVE", "SimTable", "meter_config", "meter_process"]

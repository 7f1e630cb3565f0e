"""The bench rig's stand-ins for everything outside the Pi (shoe, shuffler,
hole-card reader, central meter, a scripted dealer). Never imported by the
product. See ``docs/architecture.md``.
"""

"""exportlens_capture: run a Python script as `python SCRIPT.py` would and record
every torch.export.export / torch.export.draft_export call it makes into a
capture folder that ExportLens opens.

    python -m exportlens_capture [-o DIR] [--draft] [--spec-override FILE.json] [--] SCRIPT.py [ARGS...]

See resources/python/README.md for the folder format.
"""
from ._version import __version__

__all__ = ["__version__"]

"""python -m exportlens_capture ... (see runner.py)."""
import sys

from exportlens_capture.runner import main

if __name__ == "__main__":
    sys.exit(main())

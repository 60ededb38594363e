# The capture package is versioned with ExportLens (CMake's PROJECT_VERSION);
# tests/capture/test_capture_package.py checks that the two agree.
__version__ = "0.1.0"

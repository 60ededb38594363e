"""Shared by the capture corpus scripts: run one export and print torch's own
outcome between markers on stdout, so a test can compare what a capture
recorded with torch's own text (and the output with and without capture)."""
import sys


def report(n, fn):
    """Call fn() (one torch.export call); print `=== export N: ok` or the
    exception's type name and str() between markers. Returns the program or None."""
    try:
        ep = fn()
    except Exception as e:  # noqa: BLE001 - the point is to show any failure
        print(f"=== export {n}: {type(e).__name__}\n{e}\n=== end", flush=True)
        return None
    print(f"=== export {n}: ok", flush=True)
    return ep


def done():
    sys.stdout.flush()

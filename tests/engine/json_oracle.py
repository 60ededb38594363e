#!/usr/bin/env python3
"""Python's json module as the oracle for ExportLens's JSON reader.

Usage: python json_oracle.py DIR

For every file DIR/<name>.json writes DIR/<name>.expected: the document in a
canonical form (test_json_document.cpp prints ExportLens's parse the same way),
or "ERROR" when Python refuses the text. Canonical form: null/true/false;
integers in int64 as decimal, other numbers as R%.17g; strings and keys as the
hex of their UTF-8 bytes in quotes; arrays [a,b]; objects {"k":v} in file order.
"""
import json
import os
import sys


class Members(list):
    """An object's (key, value) pairs in file order, duplicates kept."""


def canon(v):
    if isinstance(v, Members):
        return "{" + ",".join('"' + k.encode("utf-8").hex() + '":' + canon(x) for k, x in v) + "}"
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v) if -2 ** 63 <= v < 2 ** 63 else "R%.17g" % float(v)
    if isinstance(v, float):
        return "R%.17g" % v
    if isinstance(v, str):
        return '"' + v.encode("utf-8").hex() + '"'
    return "[" + ",".join(canon(x) for x in v) + "]"


def main():
    d = sys.argv[1]
    for name in sorted(os.listdir(d)):
        if not name.endswith(".json"):
            continue
        raw = open(os.path.join(d, name), "rb").read()
        try:
            text = raw.decode("utf-8")  # strict: invalid UTF-8 is refused, as JSON requires
            out = canon(json.loads(text, object_pairs_hook=Members))
        except (ValueError, RecursionError, UnicodeEncodeError):  # a lone surrogate cannot be UTF-8
            out = "ERROR"
        with open(os.path.join(d, name[:-5] + ".expected"), "w") as f:
            f.write(out)


if __name__ == "__main__":
    main()

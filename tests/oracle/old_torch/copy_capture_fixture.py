#!/usr/bin/env python3
"""Copy one capture folder into the committed fixtures (make_old_capture_fixtures.sh).

Leaves out program.pt2 files over 200 KB and temporary files, writes the
script's stdout beside the capture, and adds the script to the release's
index.json: its exit status plain and captured, whether the two stdouts are
equal, what was left out, and the attempts' outcomes."""
import argparse
import json
import os
import shutil
import sys

LIMIT = 200 * 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--capture", required=True)
    ap.add_argument("--stdout", required=True)
    ap.add_argument("--plain-stdout", required=True)
    ap.add_argument("--exit", type=int, required=True)
    ap.add_argument("--plain-exit", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--index", required=True)
    ap.add_argument("--name", required=True)
    a = ap.parse_args()

    if not os.path.exists(os.path.join(a.capture, "manifest.json")):
        sys.exit(f"no capture in {a.capture}")
    shutil.rmtree(a.out, ignore_errors=True)
    left_out = []

    def ignore(folder, names):
        skip = []
        for n in names:
            p = os.path.join(folder, n)
            if ".tmp" in n or n == "__pycache__":
                skip.append(n)
            elif n.endswith(".pt2") and os.path.getsize(p) > LIMIT:
                skip.append(n)
                left_out.append(os.path.relpath(p, a.capture))
        return skip

    shutil.copytree(a.capture, a.out, ignore=ignore)
    shutil.copyfile(a.stdout, os.path.join(a.out, "stdout.txt"))
    with open(a.stdout, encoding="utf-8") as f:
        captured = f.read()
    with open(a.plain_stdout, encoding="utf-8") as f:
        plain = f.read()
    with open(os.path.join(a.out, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)

    index = {}
    if os.path.exists(a.index):
        with open(a.index, encoding="utf-8") as f:
            index = json.load(f)
    index["torch_version"] = manifest.get("torch_version")
    index["python_version"] = manifest.get("python_version")
    index["capture_version"] = manifest.get("capture_version")
    index.setdefault("scripts", {})[a.name] = {
        "exit": a.exit,
        "plain_exit": a.plain_exit,
        "stdout_same_as_plain": captured == plain,
        "draft": bool(manifest.get("draft")),
        "attempts": [{"index": x["index"], "ok": x["ok"], "failure_class": x["failure_class"]}
                     for x in manifest.get("attempts", [])],
        "left_out": left_out,
    }
    with open(a.index, "w", encoding="utf-8") as f:
        json.dump(index, f, indent=1)
        f.write("\n")
    if captured != plain or a.exit != a.plain_exit:
        print(f"   !! {a.name}: the captured run differs from the plain run", file=sys.stderr)


if __name__ == "__main__":
    main()

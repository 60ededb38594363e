#!/usr/bin/env python3
"""Capture the failing-export script corpus with real torch, for the C++ suites.

Usage:  python make_capture_fixtures.py --out DIR

Run at build time (target capture_fixtures) with the venv's torch and the
capture package from this checkout (resources/python). Writes:

  DIR/<script>/            `python -m exportlens_capture --draft` of scripts/<script>.py
  DIR/<script>.stdout.txt  what the script printed: torch's own messages between
                           "=== export N: Type" and "=== end" markers (scripts/_corpus.py)
  DIR/<script>.exit.txt    the script's exit status under capture
  DIR/dd_item_nodraft/     dd_item.py captured without --draft (its partial graph only)
  DIR/logs/<script>/       a plain TORCH_TRACE folder of the script run without capture
                           (what a user attaches to a bug report), and its stdout
  DIR/index.json           what was made

The transformers script is captured with `--trace plain` (the draft-export
detail costs 10-25x its export time; the package's own suite covers it).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "scripts")
PACKAGE = os.path.abspath(os.path.join(HERE, "..", "..", "resources", "python"))
# Plain TORCH_TRACE logs: a non-strict failure (no error event in the log) and a strict one.
LOGGED = ["dd_item", "cv_relation", "strict_unsupported"]


def run(cmd, env, stdout_path):
    with open(stdout_path, "w") as out:
        return subprocess.run(cmd, env=env, cwd=SCRIPTS, stdout=out, stderr=subprocess.DEVNULL, timeout=900).returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=PACKAGE + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PYTHONDONTWRITEBYTECODE="1")
    env.pop("TORCH_TRACE", None)
    env.pop("TORCH_DTRACE", None)
    index = {"captures": [], "logs": []}
    scripts = sorted(f[:-3] for f in os.listdir(SCRIPTS) if f.endswith(".py") and not f.startswith("_"))
    for name in scripts:
        target = os.path.join(out, name)
        shutil.rmtree(target, ignore_errors=True)
        cmd = [sys.executable, "-m", "exportlens_capture", "-o", target, "--draft"]
        if name.startswith("hf_"):
            cmd += ["--trace", "plain"]
        code = run(cmd + ["--", os.path.join(SCRIPTS, name + ".py")], env, target + ".stdout.txt")
        with open(target + ".exit.txt", "w") as f:
            f.write(f"{code}\n")
        index["captures"].append({"name": name, "exit": code})
        print(f"captured {name}: exit {code}", flush=True)
    target = os.path.join(out, "dd_item_nodraft")
    shutil.rmtree(target, ignore_errors=True)
    run([sys.executable, "-m", "exportlens_capture", "-o", target, "--", os.path.join(SCRIPTS, "dd_item.py")], env,
        target + ".stdout.txt")
    index["captures"].append({"name": "dd_item_nodraft"})
    for name in LOGGED:
        target = os.path.join(out, "logs", name)
        shutil.rmtree(target, ignore_errors=True)
        os.makedirs(target)
        log_env = dict(env, TORCH_TRACE=target)
        run([sys.executable, os.path.join(SCRIPTS, name + ".py")], log_env, os.path.join(out, "logs", name + ".stdout.txt"))
        index["logs"].append(name)
        print(f"logged {name}", flush=True)
    with open(os.path.join(out, "index.json"), "w") as f:
        json.dump(index, f, indent=1)


if __name__ == "__main__":
    main()

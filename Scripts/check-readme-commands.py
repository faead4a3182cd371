#!/usr/bin/env python3
"""Every command the README shows still runs (issue 33).

Usage: check-readme-commands.py CONFORMANCE [README.md]

Reads the README's indented command blocks (lines starting `swift run` or `swift test`,
with their `\\` continuations). `swift test` and the bare `swift run conformance` are run by
CI's own steps; every other `swift run [-c release] conformance ...` runs here as printed,
with the built binary CONFORMANCE standing for `swift run [-c release] conformance` and
`--dry-run` appended (the plan, not the sweep: the full sweep takes ten minutes here). It
runs in a scratch directory that has what the commands name (the corpora, the examples, and
at each `--baseline` path the run directory README_BASELINE names), and must exit 0. Exits 1 naming README.md:line of a
command that does not.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile


def commands(readme):
    lines = open(readme, encoding="utf-8").read().split("\n")
    found, at = [], 0
    while at < len(lines):
        line = lines[at]
        if re.match(r"^    (swift run|swift test)\b", line):
            start, text = at + 1, line.strip()
            while text.endswith("\\"):
                at += 1
                text = text[:-1].rstrip() + " " + lines[at].strip()
            # A trailing comment is the README's, not the command's.
            text = re.sub(r"\s+#.*$", "", text)
            found.append((start, text))
        at += 1
    return found


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    conformance = os.path.abspath(sys.argv[1])
    readme = sys.argv[2] if len(sys.argv) == 3 else "README.md"
    root = os.path.dirname(os.path.abspath(readme))
    found = commands(readme)
    if not found:
        sys.exit(f"{readme}: no command blocks found")
    scratch = tempfile.mkdtemp(prefix="readme-commands-")
    failed = 0
    try:
        for name in ("Corpora", "Examples"):
            os.symlink(os.path.join(root, name), os.path.join(scratch, name))
        for line, text in found:
            words = shlex.split(text)
            if words[:2] == ["swift", "test"] or words == ["swift", "run", "conformance"]:
                print(f"{readme}:{line}: {text}  (run by CI's own step)")
                continue
            prefix = next((p for p in (["swift", "run", "-c", "release", "conformance"], ["swift", "run", "conformance"])
                           if words[:len(p)] == p), None)
            if prefix is None:
                print(f"{readme}:{line}: {text}: not a conformance command this script knows", file=sys.stderr)
                failed += 1
                continue
            arguments = words[len(prefix):]
            # A baseline the command names: a finished run's directory (README_BASELINE, a
            # clean core run in CI) stands for last night's.
            for at, word in enumerate(arguments[:-1]):
                if word == "--baseline":
                    night = os.path.dirname(os.path.join(scratch, arguments[at + 1]))
                    if not os.path.exists(night):
                        shutil.copytree(os.environ["README_BASELINE"], night)
            run = subprocess.run([conformance, *arguments, "--dry-run"], cwd=scratch,
                                 capture_output=True, text=True)
            if run.returncode != 0:
                failed += 1
                print(f"{readme}:{line}: {text}\n  exit {run.returncode}: {run.stderr.strip()[-600:]}", file=sys.stderr)
            else:
                plan = next((l for l in run.stdout.split("\n") if l.startswith("plan:")), "(no plan line)")
                print(f"{readme}:{line}: {text}\n  --dry-run: {plan}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Before/after check of the page's script and style sheet: the same bytes in two pages.

Usage: compare-page-assets.py BEFORE/index.html AFTER/index.html

Issue 33 moved the page's JavaScript and CSS from Swift string literals into files embedded
at build time (Sources/Conformance/Reports/Page/). The page must not change: this compares
the text inside <style> and inside the page's code <script> (not the data block, which holds
the run's own times) and exits 1 on any difference.
"""
import re
import sys


def assets(path):
    html = open(path, encoding="utf-8").read()
    style = re.findall(r"<style>(.*?)</style>", html, re.S)
    scripts = re.findall(r"<script>(.*?)</script>", html, re.S)
    if len(style) != 1 or len(scripts) != 1:
        sys.exit(f"{path}: expected one <style> and one code <script>, found {len(style)} and {len(scripts)}")
    return {"style": style[0], "script": scripts[0]}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    before, after = assets(sys.argv[1]), assets(sys.argv[2])
    different = False
    for name in ("style", "script"):
        if before[name] == after[name]:
            print(f"{name}: {len(before[name].encode())} bytes, the same")
        else:
            different = True
            at = next((i for i, (a, b) in enumerate(zip(before[name], after[name])) if a != b),
                      min(len(before[name]), len(after[name])))
            print(f"{name}: differs at character {at}: {before[name][at:at + 60]!r} / {after[name][at:at + 60]!r}")
    sys.exit(1 if different else 0)


if __name__ == "__main__":
    main()

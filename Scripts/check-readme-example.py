#!/usr/bin/env python3
"""The documented Swift example must be the package CI builds and tests: every code block
that follows a `<!-- file: PATH -->` line in Documentation/YourOwnLogic.md must equal PATH's
text byte for byte.
So a reader who copies the blocks gets exactly what `swift test --package-path
Examples/SwiftSubject` proves finds its defect.

Usage: python3 Scripts/check-readme-example.py [Documentation/YourOwnLogic.md]
"""
import re, sys

readme = sys.argv[1] if len(sys.argv) > 1 else "Documentation/YourOwnLogic.md"
text = open(readme, encoding="utf-8").read()
blocks = re.findall(r"<!-- file: (\S+) -->\n```\w*\n(.*?)```\n", text, re.S)
assert blocks, f"{readme}: no `<!-- file: … -->` code block"
for path, body in blocks:
    want = open(path, encoding="utf-8").read()
    if body != want:
        line = text[: text.index(f"<!-- file: {path} -->")].count("\n") + 1
        sys.exit(f"{readme}:{line}: the block for {path} differs from the file")
print(f"check-readme-example: {len(blocks)} blocks equal their files: " + ", ".join(p for p, _ in blocks))

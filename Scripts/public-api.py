#!/usr/bin/env python3
"""The public surface a team's package sees through ConformanceKit, as the compiler lists it.

ConformanceKit re-exports Conformance and PickerLogic; everything else in them is `package`
(the CLI and the tests share the package, a team's package does not). This lists each public
declaration of the three modules, from `swift-symbolgraph-extract` over the debug build, one
line each, sorted; the committed list is Documentation/PublicAPI.txt.

    Scripts/public-api.py            print the list
    Scripts/public-api.py --check    compare with Documentation/PublicAPI.txt (CI): exit 1
                                     with the difference when the surface changed
    Scripts/public-api.py --write    rewrite Documentation/PublicAPI.txt (an API change is a
                                     decision: say it in CHANGELOG.md)

Run `swift build` first.
"""
import difflib
import glob
import json
import os
import subprocess
import sys
import tempfile

MODULES = ["ConformanceKit", "Conformance", "PickerLogic"]
TYPES = {"swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias"}
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMITTED = os.path.join(ROOT, "Documentation", "PublicAPI.txt")


def surface():
    build = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.strip()
    maps = [os.path.join(build, "ICUShim.build", "module.modulemap")] + sorted(
        glob.glob(os.path.join(ROOT, "Sources", "C*", "module.modulemap")))
    lines, types = [], 0
    with tempfile.TemporaryDirectory() as out:
        for module in MODULES:
            command = ["swift-symbolgraph-extract", "-module-name", module, "-I", os.path.join(build, "Modules"),
                       "-target", "x86_64-unknown-linux-gnu", "-minimum-access-level", "public",
                       "-output-dir", out]
            for path in maps:
                command += ["-Xcc", f"-fmodule-map-file={path}"]
            subprocess.run(command, check=True)
            with open(os.path.join(out, f"{module}.symbols.json")) as file:
                graph = json.load(file)
            for symbol in graph["symbols"]:
                kind = symbol["kind"]["identifier"]
                declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
                path = ".".join(symbol["pathComponents"])
                lines.append(f"{module}  {path}  {' '.join(declaration.split())}")
                types += kind in TYPES
    return [f"# {types} public types; one public declaration a line (Scripts/public-api.py)"] + sorted(set(lines))


def main():
    lines = surface()
    text = "\n".join(lines) + "\n"
    if "--write" in sys.argv:
        with open(COMMITTED, "w") as file:
            file.write(text)
        print(f"wrote {COMMITTED}: {lines[0][2:]}")
    elif "--check" in sys.argv:
        with open(COMMITTED) as file:
            committed = file.read()
        if committed != text:
            sys.stdout.writelines(difflib.unified_diff(committed.splitlines(True), text.splitlines(True),
                                                       "Documentation/PublicAPI.txt", "this build"))
            sys.exit("the public surface changed: if meant, Scripts/public-api.py --write and a CHANGELOG line")
        print(f"public surface unchanged: {lines[0][2:]}")
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()

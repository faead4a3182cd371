#!/usr/bin/env python3
"""Rewrites JSON read from stdin (one value per line, or one document with --document) with
every character of every string and key written as a \\uXXXX escape, and spaces around the
structure: a valid serialization of the same values that no writer of ours produces, used by
the tests to show a reader decodes JSON, not this program's spelling of it."""
import json
import sys


def escaped(text):
    units = text.encode("utf-16-be")
    return '"' + "".join("\\u%02x%02x" % (units[i], units[i + 1]) for i in range(0, len(units), 2)) + '"'


def write(value):
    if isinstance(value, str):
        return escaped(value)
    if isinstance(value, dict):
        return "{ " + " , ".join(escaped(k) + " : " + write(v) for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[ " + " , ".join(write(v) for v in value) + " ]"
    return json.dumps(value)


if "--document" in sys.argv:
    print(write(json.load(sys.stdin)))
else:
    for line in sys.stdin:
        if line.strip():
            print(write(json.loads(line)))

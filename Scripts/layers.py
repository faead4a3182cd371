#!/usr/bin/env python3
"""Rooms in layers: which folder of Sources/Conformance (one Swift module) uses which.

    Scripts/layers.py            the folder -> folder edges, cycles, fan-in and fan-out
    Scripts/layers.py --check    exit 1 when a folder uses a type of a folder in a higher layer
                                 that Scripts/layers-debt.txt does not list, or the list holds
                                 an entry the code no longer has (paid: take it out)
    Scripts/layers.py --write-debt   rewrite the debt list from the code

The layers, bottom to top, are LAYERS below; Documentation/Design.md draws them. A folder may
use its own layer and the ones under it. Every upward use the code still has is a line of the
debt list (`from -> to: Type`), so the list is the work left, and the check keeps it from
growing. Run by Tests/ConformanceTests/LayerTests.swift.

How it reads the code: comments and string literals are stripped (interpolations kept);
declarations are found with a scope stack (top-level types and nested ones, a nested type
counting to the folder that declares it); each identifier is resolved roughly as Swift does
(generic parameters, then nested types of the enclosing types, then top-level names; a name
after `.` only as `Outer.Inner`). Subfolders count as their top folder.
"""
import os
import re
import sys
from collections import defaultdict

import argparse

ARGS = argparse.ArgumentParser(description="Rooms in layers (Sources/Conformance).")
ARGS.add_argument("--check", action="store_true")
ARGS.add_argument("--write-debt", action="store_true")
ARGS.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                                 "Sources", "Conformance"))
ARGS.add_argument("--debt", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "layers-debt.txt"))
OPTIONS = ARGS.parse_args()
ROOT = OPTIONS.root
if not os.path.isdir(ROOT):
    print(f"layers.py: {ROOT}: no such directory", file=sys.stderr)
    sys.exit(2)

TYPE_KW = {"struct", "enum", "class", "actor", "protocol"}
KEYWORDS = {
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
    "init", "inout", "internal", "let", "open", "operator", "private", "protocol", "public",
    "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "continue",
    "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
    "return", "switch", "where", "while", "as", "Any", "catch", "false", "is", "nil", "super",
    "self", "Self", "throw", "throws", "true", "try", "package", "actor", "some", "any", "await",
    "async", "final", "mutating", "nonmutating", "lazy", "weak", "unowned", "override",
    "convenience", "required", "indirect", "consuming", "borrowing", "sending", "nonisolated",
    "get", "set", "willSet", "didSet", "each", "repeat",
}
MODIFIERS = {"public", "package", "internal", "fileprivate", "private", "open", "final", "static",
             "class", "indirect", "nonisolated", "mutating", "nonmutating", "override", "lazy",
             "weak", "unowned", "convenience", "required", "dynamic", "optional", "consuming",
             "borrowing", "distributed"}
STDLIB_GENERICS = {"Key", "Value", "Element", "Wrapped", "Index", "SubSequence", "Iterator",
                   "Indices", "Success", "Failure", "Bound", "Stride", "RawValue"}


# ----------------------------------------------------------------------------- stripping
def strip(src):
    """Comments and string contents become spaces (newlines kept); interpolations stay code."""
    out = list(src)
    n = len(src)
    i = 0
    # stack entries: ("code", paren_depth) for an interpolation, or ("str", hashes, multi)
    stack = [("code", 0)]

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        top = stack[-1]
        c = src[i]
        if top[0] == "code":
            if src.startswith("//", i):
                j = src.find("\n", i)
                j = n if j < 0 else j
                blank(i, j)
                i = j
                continue
            if src.startswith("/*", i):
                depth, j = 1, i + 2
                while j < n and depth:
                    if src.startswith("/*", j):
                        depth += 1; j += 2
                    elif src.startswith("*/", j):
                        depth -= 1; j += 2
                    else:
                        j += 1
                blank(i, j)
                i = j
                continue
            m = re.match(r'(#*)("""|")', src[i:i + 12])
            if m and (m.group(1) == "" or True) and (c == '"' or c == "#") and m.start() == 0:
                hashes = len(m.group(1))
                multi = m.group(2) == '"""'
                i += m.end()
                stack.append(("str", hashes, multi))
                continue
            if c == "(":
                stack[-1] = ("code", top[1] + 1)
            elif c == ")":
                if top[1] == 0 and len(stack) > 1:
                    # end of an interpolation: back to the string
                    stack.pop()
                    i += 1
                    continue
                stack[-1] = ("code", top[1] - 1)
            i += 1
            continue
        # inside a string
        _, hashes, multi = top
        close = ('"""' if multi else '"') + "#" * hashes
        interp = "\\" + "#" * hashes + "("
        if src.startswith(interp, i):
            blank(i, i + len(interp) - 1)
            i += len(interp)
            stack.append(("code", 0))
            continue
        if c == "\\" and hashes == 0:
            blank(i, min(i + 2, n))
            i += 2
            continue
        if src.startswith(close, i):
            stack.pop()
            i += len(close)
            continue
        if c != "\n":
            out[i] = " "
        i += 1
    return "".join(out)


TOKEN = re.compile(r"`?[A-Za-z_][A-Za-z0-9_]*`?|\S")


def tokens(code):
    line = 1
    last = 0
    for m in TOKEN.finditer(code):
        line += code.count("\n", last, m.start())
        last = m.start()
        t = m.group(0).strip("`")
        yield t, line


def is_ident(t):
    return bool(t) and (t[0].isalpha() or t[0] == "_")


# ----------------------------------------------------------------------------- files
def swift_files(root):
    for d, _, fs in os.walk(root):
        for f in sorted(fs):
            if f.endswith(".swift"):
                p = os.path.join(d, f)
                yield os.path.relpath(p, root)


def folder_of(rel):
    return rel.split(os.sep)[0]


# ----------------------------------------------------------------------------- scopes
class Scope:
    def __init__(self, kind, path=None, generics=()):
        self.kind = kind          # "type" (type or extension body) or "other"
        self.path = path          # qualified path of the type, e.g. "Plan" or "Subject.Executor"
        self.generics = set(generics)
        self.is_extension = False
        self.open_paren = 0


def walk(toks, on_token):
    """Calls on_token(i, toks, scopes, pending) for each token; maintains scopes.

    Yields declaration events through on_token's return; the caller inspects the tokens.
    """
    scopes = []
    pending = None  # (kind, path, generics, is_extension) waiting for its "{"
    pending_generics = set()
    i = 0
    while i < len(toks):
        t, line = toks[i]
        on_token(i, toks, scopes, pending_generics)
        if t == "{":
            if pending is not None:
                s = Scope("type", pending[1], pending[2])
                s.is_extension = pending[3]
                pending = None
            else:
                s = Scope("other", None, pending_generics)
            pending_generics = set()
            scopes.append(s)
        elif t == "}":
            if scopes:
                scopes.pop()
        elif t in TYPE_KW or t == "extension":
            nxt = toks[i + 1][0] if i + 1 < len(toks) else ""
            if t == "class" and (nxt in ("func", "var", "let", "subscript", "init") or nxt in MODIFIERS):
                pass
            elif is_ident(nxt) and nxt not in KEYWORDS or (t == "extension" and is_ident(nxt)):
                if t == "extension":
                    j = i + 1
                    parts = [toks[j][0]]
                    while j + 2 < len(toks) and toks[j + 1][0] == "." and is_ident(toks[j + 2][0]):
                        parts.append(toks[j + 2][0]); j += 2
                    path = ".".join(parts)
                    gens = set()
                    pending = ("ext", path, gens, True)
                else:
                    outer = enclosing_type_path(scopes)
                    path = nxt if outer is None else outer + "." + nxt
                    gens = generic_names(toks, i + 2)
                    pending = (t, path, gens, False)
                pending_generics |= gens
        elif t == "func" or t == "init" or t == "subscript":
            k = i + 2 if t == "func" else i + 1
            pending_generics |= generic_names(toks, k)
        i += 1


def generic_names(toks, k):
    names = set()
    if k < len(toks) and toks[k][0] == "<":
        depth = 0
        expect = True
        while k < len(toks):
            t = toks[k][0]
            if t == "<":
                depth += 1
            elif t == ">":
                depth -= 1
                if depth == 0:
                    break
            elif t == "," and depth == 1:
                expect = True
            elif depth == 1 and expect and is_ident(t):
                if t == "each":
                    k += 1
                    continue
                names.add(t)
                expect = False
            elif depth == 1 and t in (":", "="):
                expect = False
            k += 1
    return names


def first_label(toks, k):
    """First argument label of a declaration whose "(" (after optional generics) is at k."""
    if k < len(toks) and toks[k][0] == "<":
        depth = 0
        while k < len(toks):
            if toks[k][0] == "<": depth += 1
            elif toks[k][0] == ">":
                depth -= 1
                if depth == 0:
                    k += 1
                    break
            k += 1
    if k >= len(toks) or toks[k][0] != "(":
        return None
    a = toks[k + 1][0] if k + 1 < len(toks) else ""
    b = toks[k + 2][0] if k + 2 < len(toks) else ""
    if a == ")":
        return ""
    if a == "_":
        return ""
    return a if is_ident(a) else ""


def use_label(toks, k):
    """Label of the first argument of a call whose "(" is at k ("" when none); None: no call."""
    if k >= len(toks) or toks[k][0] != "(":
        return None
    a = toks[k + 1][0] if k + 1 < len(toks) else ""
    b = toks[k + 2][0] if k + 2 < len(toks) else ""
    return a if is_ident(a) and b == ":" else ""


def enclosing_type_path(scopes):
    """Path of the innermost scope if every scope is a type scope, else None."""
    if not scopes:
        return None
    if all(s.kind == "type" for s in scopes):
        return scopes[-1].path
    return "<local>"


# ----------------------------------------------------------------------------- pass 1
top = {}               # top-level name -> (folder, file, line, kind)
nested = {}            # qualified path -> (folder, file, line)
ext_members = defaultdict(list)   # member name -> [(folder, extended path, file, line)]
all_members = defaultdict(set)    # member name -> set of "primary:<Type>" / "ext:<Type>"
file_tokens = {}
decl_positions = defaultdict(set)  # file -> token indexes that are declared names

for rel in swift_files(ROOT):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as fh:
        code = strip(fh.read())
    toks = list(tokens(code))
    file_tokens[rel] = toks
    folder = folder_of(rel)

    def on_decl(i, toks, scopes, _g, rel=rel, folder=folder):
        t, line = toks[i]
        nxt = toks[i + 1][0] if i + 1 < len(toks) else ""
        prev = toks[i - 1][0] if i > 0 else ""
        if t in TYPE_KW or t == "typealias":
            if t == "class" and (nxt in ("func", "var", "let", "subscript", "init") or nxt in MODIFIERS):
                return
            if not is_ident(nxt) or nxt in KEYWORDS:
                return
            decl_positions[rel].add(i + 1)
            outer = enclosing_type_path(scopes)
            if outer is None:
                top.setdefault(nxt, (folder, rel, line, t))
            elif outer != "<local>":
                nested.setdefault(outer + "." + nxt, (folder, rel, line))
        elif t in ("func", "var", "let", "case") and is_ident(nxt) and nxt not in KEYWORDS:
            decl_positions[rel].add(i + 1)
            outer = enclosing_type_path(scopes)
            if t == "case":
                return
            if outer is None and prev not in ("(", ",") :
                top.setdefault(nxt + ("()" if t == "func" else ""), (folder, rel, line, t))
            elif outer not in (None, "<local>"):
                s = scopes[-1]
                if s.is_extension:
                    ext_members[nxt].append((folder, s.path, rel, line, first_label(toks, i + 2) if t == "func" else None))
                    all_members[nxt].add("ext:" + s.path)
                else:
                    all_members[nxt].add("primary:" + s.path)

    walk(toks, on_decl)

# functions are referenced as `name(`: key them without the parens for lookup
top_funcs = {k[:-2]: v for k, v in top.items() if k.endswith("()")}
top_types = {k: v for k, v in top.items() if not k.endswith("()") and v[3] in TYPE_KW | {"typealias"}}
top_values = {k: v for k, v in top.items() if not k.endswith("()") and v[3] in ("let", "var")}


def root_folder_of_path(path):
    """Folder that declares the root type of a qualified path, or None (stdlib type)."""
    root = path.split(".")[0]
    return top_types[root][0] if root in top_types else None


# ----------------------------------------------------------------------------- pass 2
# Raw cross-file references, so that folders can be recomputed under proposed file moves:
# (kind, src_file, line, name, decl_file, owner_file). kind "type" or "member".
refs = []

for rel, toks in file_tokens.items():
    decls = decl_positions[rel]

    def on_ref(i, toks, scopes, pending_generics, rel=rel, decls=decls):
        t, line = toks[i]
        if not is_ident(t) or t in KEYWORDS or i in decls:
            return
        prev = toks[i - 1][0] if i > 0 else ""
        nxt = toks[i + 1][0] if i + 1 < len(toks) else ""
        if prev == "@":
            return
        generics = set(pending_generics)
        type_paths = []
        for s in scopes:
            generics |= s.generics
            if s.kind == "type" and s.path:
                type_paths.append(s.path)
                if s.is_extension and root_folder_of_path(s.path) is None:
                    generics |= STDLIB_GENERICS

        def add(kind, name, decl_rel, owner_rel=None):
            if decl_rel != rel:
                refs.append((kind, rel, line, name, decl_rel, owner_rel))

        if prev == ".":
            # qualified tail: Outer.Inner counts when Inner is declared in another file than Outer
            j = i
            parts = [t]
            while j - 2 >= 0 and toks[j - 1][0] == "." and is_ident(toks[j - 2][0]):
                parts.insert(0, toks[j - 2][0])
                j -= 2
            for k in range(len(parts) - 1):
                if ".".join(parts[k:]) in nested:
                    parts = parts[k:]
                    break
            qual = ".".join(parts)
            if len(parts) >= 2 and qual in nested:
                owner = ".".join(parts[:-1])
                owner_rel = nested[owner][1] if owner in nested else (
                    top_types[parts[0]][1] if parts[0] in top_types else None)
                add("type", qual, nested[qual][1], owner_rel)
                return
            # heuristic member reference
            record_member(t, use_label(toks, i + 1), add)
            return
        if t in generics:
            return
        # nested types of enclosing type scopes (innermost first)
        for p in reversed(type_paths):
            q = p + "." + t
            if q in nested:
                add("type", q, nested[q][1])
                return
        if t in top_types:
            add("type", t, top_types[t][1])
            return
        if t in top_funcs and nxt == "(":
            add("type", t + "()", top_funcs[t][1])
            return
        if t in top_values:
            add("type", t, top_values[t][1])
            return
        # unqualified call of an extension member of an enclosing type
        if nxt == "(" and t in ext_members:
            for p in type_paths:
                for (f, ext_path, drel, _, lab) in ext_members[t]:
                    if ext_path == p and (lab is None or lab == use_label(toks, i + 1)):
                        add("member", f"{ext_path}.{t}", drel)
                        return

    def record_member(t, label, add):
        decl = ext_members.get(t)
        if not decl:
            return
        # a function declared with a first label must be called with it (tells
        # `rounded(toPlaces:)` from the stdlib's `rounded()`)
        decl = [d for d in decl if d[4] is None or label is None or d[4] == label]
        if not decl:
            return
        if len({d[2] for d in decl}) != 1 or any(k.startswith("primary:") for k in all_members[t]):
            return
        paths = sorted({d[1] for d in decl})
        add("member", f"{'/'.join(paths)}.{t}", decl[0][2])

    walk(toks, on_ref)


def folder_edges(moves=None, kind="type"):
    """(src folder, dst folder) -> name -> [file:line], with files moved as `moves` says."""
    moves = moves or {}
    F = lambda r: moves.get(r, folder_of(r))
    out = defaultdict(lambda: defaultdict(list))
    for k, src, line, name, drel, orel in refs:
        if k != kind:
            continue
        a, b = F(src), F(drel)
        if a == b or (orel is not None and F(orel) == b):
            continue
        out[(a, b)][name].append(f"{src}:{line}")
    return out


edges = folder_edges()
member_edges = folder_edges(kind="member")


# ----------------------------------------------------------------------------- output
def scc(nodes, adj):
    index, low, on, st, out, counter = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]; counter[0] += 1
        st.append(v); on.add(v)
        for w in adj[v]:
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = st.pop(); on.discard(w); comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    for v in nodes:
        if v not in index:
            visit(v)
    return out


def print_edges(title, es):
    print(f"== {title}")
    tot = sum(len(v) for n in es.values() for v in n.values())
    print(f"   {len(es)} edges, {tot} references\n")
    for (a, b) in sorted(es, key=lambda e: (e[0], e[1])):
        names = es[(a, b)]
        count = sum(len(v) for v in names.values())
        files = {x.rsplit(":", 1)[0] for v in names.values() for x in v}
        print(f"{a} -> {b}: {count} refs in {len(files)} files")
        for n, where in sorted(names.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            ex = ", ".join(where[:3]) + (" ..." if len(where) > 3 else "")
            print(f"    {n} x{len(where)}: {ex}")
    print()


folders = sorted({folder_of(r) for r in file_tokens})


def main():
    print(f"# Sources/Conformance: {len(file_tokens)} files, {len(folders)} folders")
    print(f"# declared: {len(top_types)} top-level types, {len(top_funcs)} top-level funcs, "
          f"{len(top_values)} top-level lets/vars, {len(nested)} nested types\n")

    print("== Declarations per folder (top-level types; nested types declared in extensions of other folders' types)")
    for f in folders:
        names = sorted(n for n, v in top_types.items() if v[0] == f)
        names += sorted(n + "()" for n, v in top_funcs.items() if v[0] == f)
        names += sorted(n for n, v in top_values.items() if v[0] == f)
        foreign = sorted(q for q, v in nested.items() if v[0] == f and root_folder_of_path(q) not in (f, None)
                         and not any(q.startswith(o + ".") and nested[o][0] == f for o in nested if o != q))
        print(f"{f}: {', '.join(names)}")
        if foreign:
            print(f"    (nested in other folders' types: {', '.join(foreign)})")
    print()

    print_edges("Folder -> folder edges (type / global references)", edges)

    adj = defaultdict(set)
    for (a, b) in edges:
        adj[a].add(b)
    print("== Strongly connected components (type edges)")
    for comp in scc(folders, adj):
        if len(comp) > 1:
            print("   cycle:", ", ".join(comp))
    print()
    print("== Fan-in / fan-out per folder (type edges)")
    for f in folders:
        fin = sorted(a for (a, b) in edges if b == f)
        fout = sorted(b for (a, b) in edges if a == f)
        print(f"{f}: uses {len(fout)} [{', '.join(fout)}]; used by {len(fin)} [{', '.join(fin)}]")
    print()

    print_edges("Heuristic: extension members used from another folder (not in the edges above)", member_edges)


# ----------------------------------------------------------------------------- layers
LAYERS = {
    "Support": 0, "JSON": 0,
    "Oracle": 1, "Subject": 1, "Corpus": 1,
    "Checks": 2, "Reference": 2, "Records": 2, "Review": 2,
    "Running": 3, "Isolation": 3, "Events": 3,
    "Reports": 4,
    "Bench": 5, "SelfTest": 5, "Sweep": 5,
}


def upward():
    """(from, to, type) -> [file:line] for every use of a type of a higher layer."""
    out = {}
    for (a, b), names in edges.items():
        if LAYERS[a] < LAYERS[b]:
            for name, where in names.items():
                out[(a, b, name)] = where
    return out


def read_debt(path):
    debt = set()
    if not os.path.exists(path):
        return debt
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            try:
                pair, name = line.split(":", 1)
                a, b = (x.strip() for x in pair.split("->"))
            except ValueError:
                print(f"{path}:{number}: not 'From -> To: Type': {line}", file=sys.stderr)
                sys.exit(2)
            debt.add((a, b, name.strip()))
    return debt


def check():
    unknown = [f for f in folders if f not in LAYERS]
    if unknown:
        print(f"layers: folders with no layer (add them to LAYERS in Scripts/layers.py): {', '.join(unknown)}")
        return 1
    found = upward()
    if OPTIONS.write_debt:
        with open(OPTIONS.debt, "w", encoding="utf-8") as f:
            f.write("# Uses of a type of a higher layer the code still has (Scripts/layers.py --check):\n"
                    "# the work left to put the rooms in layers. Take a line out when it is paid.\n")
            for a, b, name in sorted(found, key=lambda k: (LAYERS[k[0]], k[0], LAYERS[k[1]], k[1], k[2])):
                f.write(f"{a} -> {b}: {name}\n")
        print(f"layers: {len(found)} entries written to {OPTIONS.debt}")
        return 0
    debt = read_debt(OPTIONS.debt)
    new = sorted(set(found) - debt)
    paid = sorted(debt - set(found))
    for a, b, name in new:
        where = found[(a, b, name)]
        print(f"{a} (layer {LAYERS[a]}) uses {name} of {b} (layer {LAYERS[b]}): "
              + ", ".join(where[:3]) + (" ..." if len(where) > 3 else ""))
    for a, b, name in paid:
        print(f"paid: {a} -> {b}: {name} is no longer used; take it out of {os.path.basename(OPTIONS.debt)}")
    references = sum(len(v) for v in found.values())
    if new or paid:
        print(f"layers: {len(new)} new uses of a higher layer, {len(paid)} debt entries paid")
        return 1
    print(f"layers: every folder uses its own layer and those under it, but for the debt list: "
          f"{len(found)} entries, {references} references")
    return 0


if __name__ == "__main__":
    if OPTIONS.check or OPTIONS.write_debt:
        sys.exit(check())
    main()

"""Shared by the reference generators: pinned packages from PyPI, deterministic writing.

Each generator runs as its own process with one pinned release on its path (two babel
releases cannot share an interpreter), so a release's data never leaks into another's.
"""
import gzip
import hashlib
import io
import os
import pathlib
import subprocess
import sys
import zipfile

REPO = pathlib.Path(__file__).resolve().parents[2]
REFERENCE = REPO / "Corpora" / "reference"


def pinned(package: str, version: str, cache: pathlib.Path) -> pathlib.Path:
    """The unpacked wheel of package==version under cache (downloaded once with pip).

    Wheels only: an sdist would run its own build, and every package used here ships a
    pure-Python wheel.
    """
    target = cache / f"{package}-{version}"
    if (target / ".complete").exists():
        return target
    wheels = cache / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check",
                    "--no-deps", "--only-binary", ":all:", "-d", str(wheels),
                    f"{package}=={version}"], check=True)
    normalized = package.replace("-", "_").lower()
    matches = [w for w in wheels.glob("*.whl")
               if w.name.lower().startswith(f"{normalized}-{version}-")]
    if not matches:
        raise SystemExit(f"no wheel of {package}=={version} in {wheels}")
    with zipfile.ZipFile(matches[0]) as archive:
        archive.extractall(target)
    (target / ".complete").touch()
    return target


def run_with(paths, module: str, *args: str) -> None:
    """Runs `python3 -m module args` with only these unpacked wheels added to its path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "Scripts")] + [str(p) for p in paths])
    env["PYTHONHASHSEED"] = "0"
    subprocess.run([sys.executable, "-m", module, *args], check=True, env=env, cwd=REPO)


def write_text(path: pathlib.Path, header: list, rows) -> None:
    """A TSV file: '# ' header lines (source, release, columns), then rows in the order given.

    Plain text, LF, UTF-8: the same rows give the same bytes.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["# " + line for line in header]
    lines += ["\t".join(str(field) for field in row) for row in rows]
    path.write_bytes(("\n".join(lines) + "\n").encode("utf-8"))


def write_gzip(path: pathlib.Path, header: list, rows) -> None:
    """The same as write_text, gzip-compressed with no name and no time in the header, so
    the bytes depend on the rows alone."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["# " + line for line in header]
    lines += ["\t".join(str(field) for field in row) for row in rows]
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=9) as out:
        out.write(("\n".join(lines) + "\n").encode("utf-8"))
    path.write_bytes(buffer.getvalue())


def sha256(path: pathlib.Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def header(path: pathlib.Path) -> dict:
    """The 'key: value' lines of a file's '# ' header (gzip or text)."""
    opener = gzip.open if path.suffix == ".gz" else open
    found = {}
    with opener(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            if not line.startswith("# "):
                break
            key, sep, value = line[2:].rstrip("\n").partition(": ")
            if sep:
                found.setdefault(key, value)
    return found

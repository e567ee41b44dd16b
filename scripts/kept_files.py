# SPDX-License-Identifier: MIT
"""A run's files kept beside the shipped ones (scripts/train: the final net in data/nets/, the
accepted weights headers in data/weights/), under a name that is the run's own: a file there is
replaced only when it is this run's earlier keeping of it, which its .json says (kept_by: the
run's absolute folder and start time, not the folder's base name). A name that holds another's
file (another run's, one from before kept_by, one tracked by git, a symbolic link, a device) is
passed over, and the files are kept under the name with the run's start time added (then -2,
-3, ...). Every file is written whole (scripts/file_write.py): a new name through create_file,
which fails rather than replace a file made meanwhile, the run's own through replace_file; the
.json last, so that a .json never names a file that is not there yet."""
import json
import os
import re
import stat
import subprocess

import file_write

# How many names are tried after the run's start time is added (base-STAMP, base-STAMP-2, ...).
MAX_TRIES = 100


def tracked(folder, names):
    """The names of files in folder that git tracks (none where folder is not in a work tree or
    git is not installed)."""
    try:
        # --literal-pathspecs: a name is a name, not a glob ("r[1]" is not "r1").
        p = subprocess.run(["git", "-C", folder, "--literal-pathspecs", "ls-files", "-z", "--"]
                           + names, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False)
    except OSError:
        return set()
    if p.returncode != 0:
        return set()
    return {os.path.basename(n) for n in p.stdout.decode("utf-8", "replace").split("\0") if n}


def kept_by(path):
    """The kept_by of the .json at path, None when it has none, is not JSON or cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
    except (OSError, ValueError):
        return None
    return record.get("kept_by") if isinstance(record, dict) else None


def whose(folder, base, exts, owner, payload):
    """Whether the files base+ext of folder may be written by owner: "new" (none is there), "own"
    (owner's earlier keeping: the .json, exts[-1], names owner, or only the first file is there,
    holding payload's bytes), else why not, a sentence naming the file."""
    names = [base + ext for ext in exts]
    there = {}
    for name in names:
        try:
            there[name] = os.lstat(os.path.join(folder, name)).st_mode
        except FileNotFoundError:
            pass
    for name, mode in there.items():
        if stat.S_ISLNK(mode):
            return f"{os.path.join(folder, name)} is a symbolic link"
        if not stat.S_ISREG(mode):
            return f"{os.path.join(folder, name)} is not a regular file"
    git = tracked(folder, names)
    if git:
        return f"{os.path.join(folder, sorted(git)[0])} is tracked by git"
    if not there:
        return "new"
    record, first = names[-1], os.path.join(folder, names[0])
    if record in there:
        by = kept_by(os.path.join(folder, record))
        if by == owner:
            return "own"
        who = f"run {by.get('run')} started {by.get('started')}" if isinstance(by, dict) else \
            "no run of scripts/train"
        return f"{os.path.join(folder, record)} names {who}"
    with open(first, "rb") as f:  # a keeping stopped before its .json: the same bytes
        if f.read() == payload:
            return "own"
    return f"{os.path.join(folder, names[0])} has no .json naming this run"


def write(folder, base, files, fresh):
    """Writes files ((ext, bytes) in order) as folder/base+ext: each created (fresh) or replaced.
    A fresh name taken meanwhile: the files created are removed and FileExistsError raised."""
    made = []
    try:
        for ext, data in files:
            path = os.path.join(folder, base + ext)
            if fresh:
                file_write.create_file(path, data)
                made.append(path)
            else:
                file_write.replace_file(path, data)
    except FileExistsError:
        for path in made:
            os.remove(path)
        raise


def keep(folder, base, stamp, owner, payload_ext, payload, record):
    """Keeps payload (bytes) as folder/NAME+payload_ext and record (a dict, kept_by = owner added)
    as folder/NAME.json, NAME = base when that is free or owner's own, else base-STAMP,
    base-STAMP-2, ... (module doc). Returns (NAME's path without extension, notes): one sentence
    for each name passed over, saying why. Raises FileExistsError when no name is free, OSError
    when a file cannot be written."""
    os.makedirs(folder, exist_ok=True)
    exts = [payload_ext, ".json"]
    files = [(payload_ext, payload),
             (".json", json.dumps(dict(record, kept_by=owner), indent=2, sort_keys=True))]
    stamp = re.sub(r"[^0-9A-Za-z-]+", "", stamp)  # never a path separator
    names = [base] + [f"{base}-{stamp}" + (f"-{i}" if i > 1 else "")
                      for i in range(1, MAX_TRIES + 1)]
    notes = []
    for name in names:
        state = whose(folder, name, exts, owner, payload)
        if state not in ("new", "own"):
            notes.append(f"{state}: not replaced")
            continue
        try:
            write(folder, name, files, fresh=state == "new")
        except FileExistsError:
            notes.append(f"{os.path.join(folder, name)}: made meanwhile by "
                         "another: not replaced")
            continue
        return os.path.join(folder, name), notes
    raise FileExistsError(f"{folder}: no free name for {base} (tried {base} and {len(names) - 1} "
                          f"more with {stamp})")

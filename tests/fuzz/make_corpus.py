#!/usr/bin/env python3
"""Regenerates the seed inputs of the fuzz corpus (tests/fuzz/corpus/<target>/seed-*) by running
the real code: `atoms-edge demo` makes a site and its log, append_child (tests/tools) grows the
log by many signed batches, `atoms-edge export-segments` cuts it into segments. Regression inputs
(any file not named seed-*) are left alone. Usage, from the repository root after a build:

  python3 tests/fuzz/make_corpus.py build/daemon/atoms-edge build/tests/tools/append_child

The keys in the seeds belong to a throwaway demo site made in a temporary directory.
"""
import json
import pathlib
import subprocess
import sys
import tempfile

CORPUS = pathlib.Path(__file__).resolve().parent / "corpus"
TARGETS = ["json", "checkpoint", "note", "entry", "receipt", "segment", "key_file"]


def run(*args):
    return subprocess.run(args, check=True, capture_output=True).stdout


def canonical(value):
    # Python's sorted keys and escapes match store/canonical_json.h for what the demo writes.
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def main(edge, append_child):
    seeds = {t: {} for t in TARGETS}
    with tempfile.TemporaryDirectory(prefix="atoms-corpus-") as tmp:
        state = pathlib.Path(tmp) / "site"
        run(edge, "demo", "--state-dir", str(state))
        vkey = next(line.split(" ", 1)[1] for line in
                    run(edge, "identity", "--state-dir", str(state)).decode().splitlines()
                    if line.startswith("verifier-key "))

        def export(*extra):
            out = run(edge, "export-segments", "--state-dir", str(state), *extra).decode()
            return out.splitlines()

        demo_whole = export("--from", "0")
        demo_split = export("--from", "0", "--max-bytes", "100")  # one segment per signed size
        size = json.loads(demo_whole[-1])["to"]
        republish = export("--from", str(size), "--to", str(size))  # no entries, same root

        # Grow the log: append_child commits signed batches of 1-8 entries until killed.
        child = subprocess.Popen([append_child, str(state), "7"], stdout=subprocess.PIPE, text=True)
        for line in child.stdout:
            if int(line.split()[1]) >= 40:
                break
        child.kill()
        child.wait()
        grown = export("--from", "0", "--max-bytes", "3000")
        tail = export("--from", str(size), "--max-bytes", "3000")

        seeds["segment"]["seed-demo-one"] = "\n".join([vkey] + demo_whole) + "\n"
        seeds["segment"]["seed-demo-split"] = "\n".join([vkey] + demo_split + republish) + "\n"
        seeds["segment"]["seed-grown"] = "\n".join([vkey] + grown) + "\n"
        seeds["segment"]["seed-tail-only"] = "\n".join([vkey] + tail) + "\n"  # starts with a gap
        # An empty key line selects the target's fixed key: the site does not match it.
        seeds["segment"]["seed-fixed-key"] = "\n" + demo_whole[0] + "\n"

        notes = []
        for i, line in enumerate(demo_split + grown[:3]):
            seg = json.loads(line)
            notes.append(seg["checkpoint"])
            seeds["json"][f"seed-segment-{i}"] = line
        for i, note in enumerate(notes):
            seeds["note"][f"seed-checkpoint-{i}"] = vkey + "\n" + note
            body = note[: note.rindex("\n\n") + 1]
            seeds["checkpoint"][f"seed-body-{i}"] = body
        seeds["checkpoint"]["seed-extension"] = notes[0][: notes[0].rindex("\n\n") + 1] + "ext\n"
        seeds["note"]["seed-fixed-key"] = "\n" + notes[0]

        entries = [e for line in demo_whole for e in json.loads(line)["entries"]]
        entries += json.loads(grown[-1])["entries"][:2]
        for i, text in enumerate(entries):
            seeds["entry"][f"seed-{i}"] = text
            seeds["json"][f"seed-entry-{i}"] = text
            entry = json.loads(text)
            if entry["kind"] == "receipt":
                body = canonical(entry["body"])
                seeds["receipt"][f"seed-{i}"] = vkey + "\n" + body
                seeds["json"][f"seed-receipt-{i}"] = body
                # Every optional field, unsigned: the target signs it with its fixed key (an
                # empty key line selects that key).
                full = dict(entry["body"])
                del full["sig"]
                full.update(runId="run-1", tenantId="tenant-1",
                            modelCalls=[{"purpose": "draft", "tier": "small", "requestHash": "ab"}])
                full["sources"][0]["url"] = "https://example.invalid/1"
                full["snapshot"][0].update(staleSince="2026-11-27T16:00:00+01:00", version=3)
                seeds["receipt"][f"seed-{i}-all-fields"] = "\n" + canonical(full)
        seeds["json"]["seed-edges"] = (
            ' [ {"a":[-9007199254740991,9007199254740991,0,true,false,null]} ,'
            ' "\\u00e9\\ud83d\\ude00\\u0001\\b\\f\\n\\r\\t\\"\\\\\\/", {} , [] ] ')

        seeds["key_file"]["seed-database"] = (state / "db.key").read_text()
        seeds["key_file"]["seed-site"] = (state / "site.key").read_text()

    for target, files in seeds.items():
        directory = CORPUS / target
        directory.mkdir(parents=True, exist_ok=True)
        for old in directory.glob("seed-*"):
            old.unlink()
        for name, text in files.items():
            (directory / name).write_bytes(text.encode())
        print(f"{target}: {len(files)} seeds")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])

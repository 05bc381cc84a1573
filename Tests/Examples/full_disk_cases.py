"""The full-disk cases of test_full_disk.py, run inside a user and mount
namespace of their own (`unshare -rm`), where a small tmpfs can be mounted
without privileges on the host:

    unshare -rm python3 full_disk_cases.py BIN_PATH SCRATCH_DIR

Mounts a 1 MiB tmpfs on SCRATCH_DIR, fills it to the last byte, runs the
examples that write (rxsponge, rxcat) and read (http-server's /static/)
files on it, frees the space and writes again. Prints one JSON object with
what each case did; the test outside checks it. The mount goes away with
the namespace when this script ends."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

BIN_PATH, DISK = sys.argv[1], sys.argv[2]
OLD = b"old contents\n" * 100
NEW = b"new contents\n" * 5000  # 65,000 bytes: more than the disk has left


def run(name, *args, stdin=b"", stdout=subprocess.PIPE):
    process = subprocess.run([os.path.join(BIN_PATH, name), *args], input=stdin, stdout=stdout, stderr=subprocess.PIPE, timeout=30)
    return {"status": process.returncode, "stderr": process.stderr.decode(errors="replace")}


def contents(path):
    try:
        with open(path, "rb") as file:
            return file.read()
    except FileNotFoundError:
        return None


def fill(path):
    """Writes zeros to `path` until the file system is full (pages, then
    single bytes); returns the bytes written."""
    written = 0
    with open(path, "wb", buffering=0) as file:
        for size in (4096, 1):
            while True:
                try:
                    written += file.write(b"\0" * size)
                except OSError as error:
                    if error.errno != 28:  # ENOSPC
                        raise
                    break
    return written


def static_file(root, name):
    """GETs /static/<name> from http-server serving `root`."""
    server = subprocess.Popen(
        [os.path.join(BIN_PATH, "http-server"), "--port", "0", "--threads", "1", "--root", root],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        port = None
        while port is None and time.monotonic() < deadline:
            line = server.stdout.readline()
            if not line:
                break
            if "listening on" in line:
                port = int(line.rsplit(":", 1)[1].split()[0])
        if port is None:
            return {"status": None, "body": None}
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/static/{name}", timeout=10) as response:
            return {"status": response.status, "body": response.read().decode("latin-1")}
    finally:
        server.terminate()
        server.wait(timeout=10)


def main():
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "rxuv-full-disk", DISK], check=True)
    target, fresh, filler = (os.path.join(DISK, name) for name in ("target", "fresh", "filler"))
    for path in (target, os.path.join(DISK, "page")):
        with open(path, "wb") as file:
            file.write(OLD)
    report = {"filled": fill(filler)}
    statvfs = os.statvfs(DISK)
    report["free_after_fill"] = statvfs.f_bavail * statvfs.f_frsize

    report["atomic"] = run("rxsponge", target, stdin=NEW)
    report["atomic_left"] = contents(target) == OLD
    report["fresh"] = run("rxsponge", fresh, stdin=NEW)
    report["fresh_exists"] = os.path.exists(fresh)
    report["listing_after_atomic"] = sorted(os.listdir(DISK))

    with open(os.path.join(DISK, "stdout"), "wb") as out:
        report["stdout"] = run("rxcat", stdin=NEW, stdout=out)

    report["in_place"] = run("rxsponge", "--in-place", target, stdin=NEW)
    in_place = contents(target)
    report["in_place_prefix"] = in_place is not None and NEW.startswith(in_place)

    report["stdout_bytes"] = os.path.getsize(os.path.join(DISK, "stdout"))
    report["static"] = static_file(DISK, "page")
    report["static_whole"] = report["static"]["body"] == OLD.decode("latin-1")
    del report["static"]["body"]

    os.unlink(filler)
    os.unlink(os.path.join(DISK, "stdout"))
    report["after_freeing"] = run("rxsponge", target, stdin=NEW)
    report["after_freeing_whole"] = contents(target) == NEW
    os.unlink(os.path.join(DISK, "page"))
    report["listing_at_end"] = sorted(os.listdir(DISK))
    print(json.dumps(report))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A bounded load test of `wsdb serve` on loopback: many clients at once,
mixing lookups, random states, replays and solves, for a fixed time; it
stops by itself.

The server is a real `wsdb serve` process on a free loopback port over a
database of 4x4 two, three and four colours (built here unless --db names
one). Each client is an asyncio task of one httpx connection pool that
sends its next request as soon as the last is answered: lookups of random
4x4 four-colour states (most of the traffic, as on the page), random states
of a given depth, replays, and solves of random 4x4 states (`time_limit`
1 s). Reported: requests per second, p50 and p99 latency per endpoint,
errors (any status but 200, except the documented 503 of a solve refused
for want of a search slot, counted apart), and the server's resident memory
after a warm-up and at the end. Afterwards the server must still answer.

    python scripts/load_test.py                       # 60 s, 20 clients
    python scripts/load_test.py --seconds 30 --clients 40
    python scripts/load_test.py --write               # into docs/performance.md
"""

from __future__ import annotations

import argparse
import asyncio
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

import wsdb  # noqa: E402

#: the share of each kind of request in the mix
MIX = {"lookup": 0.80, "random": 0.10, "apply": 0.08, "solve": 0.02}
#: the deepest level of 4x4 two, three and four colours that random states are drawn from
DEEPEST = {2: 6, 3: 9, 4: 11}


def rss_mib(pid: int) -> float:
    """The resident memory of process ``pid`` (VmRSS), in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def requests(seed: int, count: int) -> list[tuple[str, str, str, dict | None]]:
    """The requests the clients draw from: (kind, method, path, JSON body)."""
    rng = random.Random(seed)
    states = {
        c: [wsdb.format_state(s) for s in wsdb.random_states(wsdb.wrapslide(4, c), 200, seed=seed + c)]
        for c in (2, 3, 4)
    }
    out = []
    for _ in range(count):
        kind = rng.choices(list(MIX), weights=list(MIX.values()))[0]
        c = rng.choice((2, 3, 4))
        state = rng.choice(states[c])
        if kind == "lookup":
            out.append((kind, "POST", "/api/lookup", {"state": rng.choice(states[4])}))
        elif kind == "random":
            out.append(
                (
                    kind,
                    "GET",
                    f"/api/random?n=4&c={c}&depth={rng.randint(1, DEEPEST[c])}&seed={rng.randrange(10**9)}",
                    None,
                )
            )
        elif kind == "apply":
            out.append((kind, "POST", "/api/apply", {"state": state, "moves": "T1 L2 B3 R1"}))
        else:
            out.append((kind, "POST", "/api/solve", {"state": state, "time_limit": 1}))
    return out


async def client(base: str, todo: list, until: float, seen: dict) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        i = random.Random(id(seen) ^ len(todo)).randrange(len(todo))
        while time.monotonic() < until:
            kind, method, path, body = todo[i % len(todo)]
            i += 1
            t = time.perf_counter()
            try:
                r = await http.request(method, path, json=body)
                status = r.status_code
            except httpx.HTTPError as e:
                status = type(e).__name__
            seen.setdefault(kind, []).append((time.perf_counter() - t, status))


async def load(base: str, clients: int, seconds: float, todo: list) -> dict:
    seen: dict = {}
    until = time.monotonic() + seconds
    await asyncio.gather(*(client(base, todo[k::clients], until, seen) for k in range(clients)))
    return seen


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--db", help="a database holding 4x4 two, three and four colours (default: built in a temporary folder)"
    )
    ap.add_argument("--seconds", type=float, default=60.0, help="how long the load lasts")
    ap.add_argument("--clients", type=int, default=20, help="clients sending at once")
    ap.add_argument("--warmup", type=float, default=15.0, help="seconds of load before the first memory reading")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--write", action="store_true", help="print the table into docs/performance.md")
    args = ap.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="wsdb-load-"))
    db = Path(args.db) if args.db else folder / "load.sqlite"
    if not args.db:
        for c in (2, 3, 4):
            wsdb.build(4, c, db=db)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "wsdb", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/api/info", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit(f"the server did not start: {server.stderr.read() if server.stderr else ''}")
            time.sleep(0.2)
        todo = requests(args.seed, 20_000)
        for c in (2, 3, 4):  # each grid's first solve derives its tables: before the clock
            state = wsdb.format_state(wsdb.random_states(wsdb.wrapslide(4, c), 1, seed=c)[0])
            httpx.post(f"{base}/api/solve", json={"state": state, "time_limit": 1}, timeout=300)
        asyncio.run(load(base, args.clients, args.warmup, todo))  # every kernel and table loaded
        start_mib = rss_mib(server.pid)
        t0 = time.perf_counter()
        seen = asyncio.run(load(base, args.clients, args.seconds, todo))
        wall = time.perf_counter() - t0
        end_mib = rss_mib(server.pid)
        after = httpx.post(
            f"{base}/api/lookup",
            json={"state": todo[0][3]["state"] if todo[0][3] else "1212/3434/1243/3421"},
            timeout=10,
        )
        alive = httpx.get(f"{base}/api/info", timeout=10).status_code == 200 and after.status_code in (200, 400)
    finally:
        server.terminate()
        server.wait(timeout=30)

    total = sum(len(v) for v in seen.values())
    rows = [
        f"{args.clients} clients for {args.seconds:.0f} s: {total / wall:,.0f} requests/s in all; "
        f"server memory {start_mib:,.0f} MiB after the warm-up, {end_mib:,.0f} MiB at the end "
        f"({(end_mib - start_mib) / start_mib:+.1%}); it answered normally afterwards: {'yes' if alive else 'NO'}.",
        "",
        "| endpoint | requests | per second | p50 answered | p99 answered | errors | refused (503, solves only) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    print(rows[0])
    statuses = sorted({str(s) for got in seen.values() for _, s in got if s != 200})
    if statuses:
        print("statuses other than 200:", ", ".join(statuses))
    bad = 0
    for kind in MIX:
        got = seen.get(kind, [])
        times = sorted(t for t, s in got if s == 200)  # the latency of answers; refusals are counted apart
        refused = sum(1 for _, s in got if s == 503 and kind == "solve")
        errors = sum(1 for _, s in got if s != 200 and not (s == 503 and kind == "solve"))
        bad += errors
        p50 = statistics.median(times) if times else float("nan")
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))] if times else float("nan")
        rows.append(
            f"| {kind} | {len(got):,} | {len(got) / wall:,.1f} | {p50 * 1000:,.0f} ms | {p99 * 1000:,.0f} ms "
            f"| {errors} | {refused} |"
        )
        print(rows[-1])
    if args.write:
        from docs_tables import write

        write(
            "docs/performance.md",
            "load_test",
            "\n".join(rows),
            f"`python scripts/load_test.py {' '.join(sys.argv[1:])}`: a real `wsdb serve` on loopback over "
            "4x4 two to four colours, httpx clients each sending its next request when the last is answered; "
            "a mix of 80% lookups, 10% random states by depth, 8% replays, 2% solves (time limit 1 s); "
            "latency counts the wait for the server's two cores, which the clients share",
        )
    if bad or not alive or end_mib > start_mib * 1.10:
        raise SystemExit(
            f"load test failed: {bad} errors, answering afterwards: {alive}, memory {start_mib:.0f} -> {end_mib:.0f} MiB"
        )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Turns the JSON lines of run-client-bench.sh into a table with PASS/MISS per target and a JSON file."""
import json
import sys

EVENTS_PER_REQUEST = 66  # 64 content chunks + usage chunk + [DONE]
CONTENT_PER_REQUEST = 64

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip().startswith("{")]
out_path = sys.argv[2]


def pick(bench, **kw):
    return [r for r in rows if r.get("bench") == bench and all(r.get(k) == v for k, v in kw.items())]


def one(bench, **kw):
    found = pick(bench, **kw)
    return found[0] if found else {}


env = one("env")
requests = env.get("requests", 0)
checks = []  # (name, figure, target, pass)


def check(name, figure, target, ok):
    checks.append({"target": name, "figure": figure, "goal": target, "pass": bool(ok)})


ours_sse, ours_json = one("ours", name="sse"), one("ours", name="json")
wrk_sse, wrk_json = one("wrk", name="sse"), one("wrk", name="json")
lean_sse, lean_json = one("lean", stream=True), one("lean", stream=False)
qnam_sse, qnam_json = one("qnam", stream=True), one("qnam", stream=False)
mem = one("memory")
ui = one("ui_stall")

def bound(ours, theirs):
    """Says when nginx's one worker was the limit of both runs: a client cannot go past that
    rate, so the ratio then compares the server's capacity with itself (about 1.0), not clients."""
    a, b = ours.get("server_busy"), theirs.get("server_busy")
    if a is None or b is None:
        return ""
    note = f"; nginx busy {a:.0%}/{b:.0%}"
    return note + ": server-bound" if min(a, b) >= 0.95 else note


sse_events = ours_sse.get("rps", 0) * EVENTS_PER_REQUEST
check("streaming SSE events/s (66/request)", f"{sse_events:,.0f}", ">= 500,000",
      sse_events >= 500_000 and ours_sse.get("failed", 1) == 0)
ratio = ours_sse.get("rps", 0) / wrk_sse["rps"] if wrk_sse.get("rps") else 0
all_done = ours_sse.get("completed") == requests and ours_sse.get("failed") == 0
check("streaming req/s vs wrk, all completed", f"{ratio:.2f}x, {ours_sse.get('completed')}/{requests} ok{bound(ours_sse, wrk_sse)}",
      ">= 1.0x wrk", ratio >= 1.0 and all_done)
ratio = ours_json.get("rps", 0) / wrk_json["rps"] if wrk_json.get("rps") else 0
all_done = ours_json.get("completed") == requests and ours_json.get("failed") == 0
check("non-streaming req/s vs wrk, all completed", f"{ratio:.2f}x, {ours_json.get('completed')}/{requests} ok{bound(ours_json, wrk_json)}",
      ">= 1.2x wrk", ratio >= 1.2 and all_done)
mock64 = one("mock_cpu", concurrency=64)
wrk64 = one("mock_cpu_wrk", concurrency=64)
if mock64:
    beside = (f" (wrk {wrk64['cpu_ms_per_request']:.2f} ms: {mock64['cpu_ms_per_request'] / wrk64['cpu_ms_per_request']:.2f}x)"
              if wrk64 and wrk64.get("cpu_ms_per_request") else "")
    check("CPU per request, C=64 vs mock-server", f"{mock64['cpu_ms_per_request']:.2f} ms{beside}", "<= 0.5 ms",
          mock64["cpu_ms_per_request"] <= 0.5 and mock64.get("failed") == 0)
for r in pick("concurrency"):
    c = r["concurrency"]
    check(f"exact in flight C={c} (server/client)", f"{r['server_max_in_flight']}/{r['client_max_in_flight']}",
          f"== {c}", r["server_max_in_flight"] == c and r["client_max_in_flight"] == c and r.get("failed", 1) == 0)
t256 = one("ttft", concurrency=256, setup="target")
if t256 and t256.get("added_p99_ms") is None:
    check("client-added TTFT p99 at C=256 (mock-server)", "no figure (no request matched)", "<= 1 ms", False)
elif t256:
    check("client-added TTFT p99 at C=256 (mock-server)", f"{t256['added_p99_ms']:.3f} ms", "<= 1 ms", t256["added_p99_ms"] <= 1.0)
if ui:
    check("UI-thread stall, C=1024 run in the main window", f"{ui['max_gap_ms']:.1f} ms", "<= 50 ms",
          ui["max_gap_ms"] <= 50 and ui.get("exit_code") == 0)
if mem:
    check("RSS per finished record", f"{mem['rss_bytes_per_record']:.0f} B", "<= 300 B", mem["rss_bytes_per_record"] <= 300)


def f(x, fmt="{:,.0f}"):
    return fmt.format(x) if isinstance(x, (int, float)) else "-"


print()
print(f"Client benchmark ({env.get('nproc')} cores, loadavg at start {env.get('loadavg')}, {requests} requests per run, "
      f"SSE answer {env.get('sse_bytes')} bytes = 64 content chunks + usage + [DONE])")
print()
print(f"{'nginx canned answers, C=64':44} {'req/s':>10} {'SSE events/s':>14} {'content/s':>12} {'CPU us/req':>11} {'max RSS MiB':>12} "
      f"{'nginx busy':>11}")
lines = [
    ("streaming   sweepbench run (lean client)", ours_sse, EVENTS_PER_REQUEST, ours_sse.get("cpu_us_per_request")),
    ("streaming   wrk -t2 -c64", wrk_sse, None, wrk_sse.get("cpu_us_per_request")),
    ("streaming   lean client (bench harness)", lean_sse, EVENTS_PER_REQUEST, lean_sse.get("cpu_us_per_request")),
    ("streaming   QNAM pool, 11 managers", qnam_sse, "measured", qnam_sse.get("cpu_us_per_request")),
    ("non-stream  sweepbench run (lean client)", ours_json, None, ours_json.get("cpu_us_per_request")),
    ("non-stream  wrk -t2 -c64", wrk_json, None, wrk_json.get("cpu_us_per_request")),
    ("non-stream  lean client (bench harness)", lean_json, None, lean_json.get("cpu_us_per_request")),
    ("non-stream  QNAM pool, 11 managers", qnam_json, None, qnam_json.get("cpu_us_per_request")),
]
for label, r, ev, cpu in lines:
    rps = r.get("rps")
    if ev == "measured":
        events, content = r.get("events_per_s"), r.get("content_events_per_s")
    elif ev:
        events, content = (rps or 0) * ev, (rps or 0) * CONTENT_PER_REQUEST
    else:
        events = content = None
    print(f"{label:44} {f(rps):>10} {f(events):>14} {f(content):>12} {f(cpu, '{:.1f}'):>11} {f(r.get('max_rss_mib'), '{:.0f}'):>12} "
          f"{f(r.get('server_busy'), '{:.0%}'):>11}")
print()
for r in pick("mock_cpu"):
    print(f"mock-server C={r['concurrency']:<4} 512 streaming requests (64/64 tokens): {r['cpu_ms_per_request']:.3f} ms CPU per request "
          f"(user {r['user_s']:.2f} s, sys {r['sys_s']:.2f} s), max RSS {r['max_rss_mib']:.0f} MiB, "
          f"{r['completed']} completed, {r['failed']} failed")
for r in pick("mock_cpu_wrk"):
    figure = f"{r['cpu_ms_per_request']:.3f} ms CPU per request" if r.get("cpu_ms_per_request") else "no request completed"
    print(f"  wrk -t1 C={r['concurrency']:<4} same mock, same request shape: {figure} (user {r['user_s']:.2f} s, sys {r['sys_s']:.2f} s), "
          f"{r['completed']} completed, {r['non_2xx']} non-2xx")
for r in pick("concurrency"):
    print(f"concurrency C={r['concurrency']:<5} server max in flight {r['server_max_in_flight']:<5} client max {r['client_max_in_flight']:<5} "
          f"mean {r['client_mean_in_flight']:.1f}  completed {r['completed']} failed {r['failed']}")
last_setup = None
for r in pick("ttft"):
    if r.get("added_p50_ms") is None:
        print(f"TTFT C={r.get('concurrency')} ({r.get('setup')}): no request matched between client and mock")
        continue
    # added = send side (client send stamp -> kernel receive stamp at the mock) + receive side
    # (mock's first-token write -> client read); older runs have no send side.
    send_side = (f"send side p50 {r['send_to_arrival_p50_ms']:.3f} / p99 {r['send_to_arrival_p99_ms']:.3f} ms, "
                 if "send_to_arrival_p50_ms" in r else "")
    lag = (f"; mock read the request {r['mock_read_lag_p50_ms']:.3f} / {r['mock_read_lag_p99_ms']:.3f} ms after the "
           f"kernel had it, {r['kernel_arrivals']} kernel-stamped" if "mock_read_lag_p50_ms" in r else "")
    setup = {"target": "mock-server, step 2 ms + 0.02 ms/seq", "stress": "stress, in-process mock, fixed 2 ms step",
             "stress-nice": "stress, mock-server nice 10, fixed 2 ms step"}.get(r.get("setup"), r.get("setup") or "in-process mock")
    if setup != last_setup:
        print(f"TTFT, {setup}:")
        last_setup = setup
    print(f"  C={r['concurrency']:<4} client-added p50 {r['added_p50_ms']:.3f} ms  p99 {r['added_p99_ms']:.3f} ms  "
          f"({send_side}receive side p50 {r['recv_side_p50_ms']:.3f} / p99 {r['recv_side_p99_ms']:.3f} ms; "
          f"client TTFT p50 {r['client_ttft_p50_ms']:.2f} ms, mock {r['server_ttft_p50_ms']:.2f} ms; {r['matched']} matched{lag})")
if mem:
    print(f"memory: {mem['rss_bytes_per_record']:.0f} B RSS per finished record over {mem['records']:.0f} records "
          f"(peak growth {mem['hwm_growth_bytes_per_record']:.0f} B/record; sizeof(RequestRecord) {mem['sizeof_record']})")
if ui:
    print(f"UI: C={ui['concurrency']} run in MainWindow: longest heartbeat gap {ui['max_gap_ms']:.1f} ms (5 ms timer), "
          f"p99 {ui['p99_gap_ms']:.1f} ms, {ui['gaps_over_50ms']} gaps > 50 ms; after finish (results load) "
          f"{ui['max_gap_after_finish_ms']:.1f} ms; {ui['completed']} completed in {ui['run_wall_s']:.1f} s")
print()
for c in checks:
    print(f"{'PASS' if c['pass'] else 'MISS'}  {c['target']:52} {c['figure']:>22}   target {c['goal']}")
print()
json.dump({"env": env, "runs": rows, "checks": checks}, open(out_path, "w"), indent=1, default=str)
print(f"written: {out_path}")

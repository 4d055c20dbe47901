#!/usr/bin/env bash
# Benchmark of SweepBench's load-generating client. Not a test: it measures and
# prints a table (PASS/MISS against the targets) and writes a JSON file.
#
#   bash tests/bench/run-client-bench.sh            # full run, ~5-10 min on 2 cores
#   BENCH_REQUESTS=20000 bash tests/bench/run-client-bench.sh   # shorter
#
# Environment: BUILD_DIR (default build-bench), BENCH_REQUESTS (default 100000 per
# nginx run), BENCH_SECONDS (wrk duration and per-run time cap, default 15 / 120),
# BENCH_JSON (default $BUILD_DIR/client-bench.json), BENCH_SKIP_BUILD=1.
# A/B mode: BENCH_AB_BASELINE=<another build's app/sweepbench> runs only the streaming C=64 sweep
# against nginx, alternating the baseline and this build (ABBA, BENCH_AB_ROUNDS pairs, default 2),
# and prints each build's SSE events/s and their ratio: a change to the client's hot path is judged
# by the same requests on the same nginx in one run, not against figures from another day.
# Traffic goes to 127.0.0.1 only: an unprivileged nginx on a free port, and in-process mocks.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build-bench}
REQUESTS=${BENCH_REQUESTS:-100000}
WRK_SECONDS=${BENCH_SECONDS:-15}
CAP_SECONDS=${BENCH_CAP_SECONDS:-120}
OUT_JSON=${BENCH_JSON:-$BUILD/client-bench.json}

log() { printf '[bench] %s\n' "$*" >&2; }

# ---- tools: nginx and wrk (Debian packages)
need=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx)
command -v wrk >/dev/null 2>&1 || need+=(wrk)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    log "missing ${need[*]}: run as root or: sudo apt-get install -y ${need[*]}"; exit 2
  fi
  log "installing ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  # The package may start a system nginx on port 80: we do not use it.
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

# ---- build (own build dir, nice, 2 jobs)
if [ "${BENCH_SKIP_BUILD:-0}" != 1 ]; then
  [ -f "$BUILD/build.ninja" ] || nice cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >/dev/null
  nice ninja -C "$BUILD" -j2 sweepbench sweepbench-clientbench sweepbench-uistall >&2
fi
SB=$BUILD/app/sweepbench
CB=$BUILD/tests/bench/sweepbench-clientbench
UI=$BUILD/tests/bench/sweepbench-uistall

# ---- nginx with canned answers
WORK=$(mktemp -d /tmp/sweepbench-bench.XXXXXX)
chmod 755 "$WORK"
NGINX_PID=
cleanup() {
  for pidfile in "$WORK"/mock-*.pid; do
    if [ -f "$pidfile" ]; then kill "$(cat "$pidfile")" 2>/dev/null || true; fi
  done
  if [ -n "$NGINX_PID" ] && kill -0 "$NGINX_PID" 2>/dev/null; then
    kill -QUIT "$NGINX_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$NGINX_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$NGINX_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

python3 - "$WORK" <<'EOF'
import json, os, sys
work = sys.argv[1]
for sub in ("www/sse/v1/chat", "www/json/v1/chat", "tmp", "logs"):
    os.makedirs(os.path.join(work, sub), exist_ok=True)
base = {"id": "cmpl-1", "object": "chat.completion.chunk", "model": "bench"}
events = []
for i in range(64):
    c = dict(base, choices=[{"index": 0, "delta": {"content": "tok%02d " % i}}])
    events.append(json.dumps(c, separators=(",", ":")))
events.append(json.dumps(dict(base, choices=[], usage={"prompt_tokens": 16, "completion_tokens": 64, "total_tokens": 80}),
                         separators=(",", ":")))
events.append("[DONE]")
sse = "".join("data: %s\n\n" % e for e in events)
open(os.path.join(work, "www/sse/v1/chat/completions"), "w").write(sse)
answer = {"id": "chatcmpl-bench", "object": "chat.completion", "created": 1700000000, "model": "bench",
          "choices": [{"index": 0, "message": {"role": "assistant", "content": " ".join("tok%02d" % i for i in range(64))},
                       "finish_reason": "length"}],
          "usage": {"prompt_tokens": 16, "completion_tokens": 64, "total_tokens": 80}}
open(os.path.join(work, "www/json/v1/chat/completions"), "w").write(json.dumps(answer, separators=(",", ":")))
print(len(sse), file=open(os.path.join(work, "sse-bytes"), "w"))
print(len(events), file=open(os.path.join(work, "sse-events"), "w"))
EOF
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$WORK/nginx.conf" <<EOF
daemon off;
worker_processes 1;
pid $WORK/logs/nginx.pid;
error_log $WORK/logs/error.log warn;
events { worker_connections 8192; }
http {
  access_log off;
  sendfile on;
  tcp_nodelay on;
  keepalive_requests 100000000;
  keepalive_timeout 300s;
  client_body_temp_path $WORK/tmp/body;
  proxy_temp_path $WORK/tmp/proxy;
  fastcgi_temp_path $WORK/tmp/fastcgi;
  uwsgi_temp_path $WORK/tmp/uwsgi;
  scgi_temp_path $WORK/tmp/scgi;
  server {
    listen 127.0.0.1:$PORT backlog=4096;
    root $WORK/www;
    # Static files answer POST through the 405 error page (an internal GET of the same file).
    location /sse/ { default_type text/event-stream; error_page 405 =200 \$uri; }
    location /json/ { default_type application/json; error_page 405 =200 \$uri; }
  }
}
EOF
port_open() { python3 -c "import socket; socket.create_connection(('127.0.0.1',$1),0.2)" 2>/dev/null; }
chmod -R a+rX "$WORK"
chmod a+rwx "$WORK/tmp" "$WORK/logs"
if [ "$(id -u)" -eq 0 ]; then
  setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$NGINX" -p "$WORK" -e "$WORK/logs/error.log" -c "$WORK/nginx.conf" &
else
  "$NGINX" -p "$WORK" -e "$WORK/logs/error.log" -c "$WORK/nginx.conf" &
fi
NGINX_PID=$!
for _ in $(seq 100); do
  kill -0 "$NGINX_PID" 2>/dev/null || { log "nginx did not start:"; cat "$WORK/logs/error.log" >&2; exit 2; }
  port_open "$PORT" && break
  sleep 0.1
done
SSE_URL=http://127.0.0.1:$PORT/sse/v1/chat/completions
JSON_URL=http://127.0.0.1:$PORT/json/v1/chat/completions
python3 - "$SSE_URL" "$JSON_URL" <<'EOF'
import sys, urllib.request
for url, ctype in ((sys.argv[1], "text/event-stream"), (sys.argv[2], "application/json")):
    req = urllib.request.Request(url, data=b'{"stream":true}', headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=5) as r:
        body = r.read()
        assert r.status == 200 and r.headers.get_content_type() == ctype and len(body) > 300, (url, r.status, r.headers)
EOF
log "nginx $($NGINX -v 2>&1 | sed 's/.*\///') on 127.0.0.1:$PORT (pid $NGINX_PID), SSE answer $(cat "$WORK/sse-bytes") bytes"

RESULTS=$WORK/results.jsonl
: >"$RESULTS"
record() { printf '%s\n' "$1" >>"$RESULTS"; }
record "{\"bench\":\"env\",\"loadavg\":\"$(cut -d' ' -f1-3 /proc/loadavg)\",\"nproc\":$(nproc),\"requests\":$REQUESTS,\"sse_bytes\":$(cat "$WORK/sse-bytes")}"

# CPU seconds nginx's worker has used so far: a run that keeps it busy all the time measures
# nginx, not the client, and the table says so beside each ratio.
CLK_TCK=$(getconf CLK_TCK)
nginx_cpu_s() {
  local ticks=0 w
  for w in $(pgrep -P "$NGINX_PID"); do ticks=$((ticks + $(awk '{print $14 + $15}' "/proc/$w/stat" 2>/dev/null || echo 0))); done
  python3 -c "print($ticks / $CLK_TCK)"
}

# Runs a command and writes "user_s sys_s max_rss_kib" of it and its descendants to $1: the
# CPU a run costs and the memory it peaks at are benchmark columns, so a regression shows in the
# next release's table instead of in a comparison run.
rusage() { # out-file command...
  local out=$1; shift
  python3 - "$out" "$@" <<'EOF'
import resource, subprocess, sys
# Only the command's own: this interpreter may already hold its launcher's children (a pyenv
# shim's, ~60 ms), which would add 0.1 ms to each of 512 requests.
before = resource.getrusage(resource.RUSAGE_CHILDREN)
code = subprocess.call(sys.argv[2:])
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%f %f %d\n" % (ru.ru_utime - before.ru_utime, ru.ru_stime - before.ru_stime, ru.ru_maxrss))
sys.exit(code)
EOF
}

# ---- ours: sweepbench run, C=64, $REQUESTS requests against nginx
WARMUP=2000
run_ours() { # name base-url streaming
  local name=$1 url=$2 streaming=$3 dir=$WORK/run-$1
  cat >"$WORK/$name.yaml" <<EOF
name: client-bench-$name
servers:
  - name: nginx-$name
    url: $url
    model: bench
workload: {streaming: $streaming, input_tokens: 16, output_tokens: 64, requests_per_cell: $REQUESTS, warmup_requests: $WARMUP, request_timeout_s: 30}
sweep: {concurrency: [64]}
EOF
  log "sweepbench run $name: C=64, $REQUESTS requests"
  local t0 t1 n0 n1
  t0=$(date +%s.%N) n0=$(nginx_cpu_s)
  rusage "$WORK/$name.rusage" timeout "$CAP_SECONDS" "$SB" run "$WORK/$name.yaml" --out "$dir" >"$WORK/$name.log" 2>&1 \
    || log "sweepbench run $name exited $? (see below)"
  t1=$(date +%s.%N) n1=$(nginx_cpu_s)
  python3 - "$dir/results.json" "$name" "$t0" "$t1" "$WORK/$name.rusage" "$WARMUP" "$n0" "$n1" >>"$RESULTS" <<'EOF'
import json, sys
path, name, t0, t1 = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
warmup = int(sys.argv[6])
nginx_s = float(sys.argv[8]) - float(sys.argv[7])
user, system, rss_kib = (float(x) for x in open(sys.argv[5]).read().split())
try:
    cell = json.load(open(path))["cells"][0]
except Exception as e:
    print(json.dumps({"bench": "ours", "name": name, "error": str(e)})); sys.exit()
m = cell["metrics"]
print(json.dumps({"bench": "ours", "name": name, "status": cell["status"], "completed": cell["requests"]["completed"],
                  "failed": cell["requests"]["failed"], "rps": m["request_throughput"]["avg"],
                  "output_tokens_per_s": m["output_token_throughput"]["avg"], "token_source": cell.get("token_source"),
                  "max_in_flight": cell["max_in_flight"], "mean_in_flight": cell["mean_in_flight"],
                  "client_cpu_max": cell["client_cpu_max"], "duration_s": cell["duration_s"],
                  "process_wall_s": t1 - t0, "warnings": cell.get("warnings", []),
                  # the whole process (start and calibration included) per request sent, warmup too
                  "cpu_us_per_request": (user + system) * 1e6 / max(1, cell["requests"]["completed"] + warmup),
                  "user_s": user, "sys_s": system, "max_rss_mib": rss_kib / 1024,
                  # nginx's share of its core while the requests ran (warmup and cell at the cell's
                  # rate; the process's start, when nginx idles, is left out)
                  "server_busy": nginx_s * m["request_throughput"]["avg"] / max(1, cell["requests"]["completed"] + warmup)}))
EOF
}

run_wrk() { # name url accept
  local name=$1 url=$2 accept=$3
  cat >"$WORK/post-$name.lua" <<EOF
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "$accept"
wrk.body = '{"model":"bench","max_tokens":64,"messages":[{"role":"user","content":"wrk time year people way day man thing woman life child world school state family student"}],"stream":true}'
EOF
  log "wrk $name: -t2 -c64 -d${WRK_SECONDS}s"
  local n0 n1
  n0=$(nginx_cpu_s)
  rusage "$WORK/wrk-$name.rusage" timeout $((WRK_SECONDS + 30)) wrk -t2 -c64 -d"${WRK_SECONDS}s" -s "$WORK/post-$name.lua" "$url" \
    >"$WORK/wrk-$name.txt" 2>&1 || true
  n1=$(nginx_cpu_s)
  python3 - "$WORK/wrk-$name.txt" "$name" "$WORK/wrk-$name.rusage" "$n0" "$n1" "$WRK_SECONDS" >>"$RESULTS" <<'EOF'
import json, re, sys
text = open(sys.argv[1]).read()
user, system, rss_kib = (float(x) for x in open(sys.argv[3]).read().split())
nginx_s, seconds = float(sys.argv[5]) - float(sys.argv[4]), float(sys.argv[6])
rps = re.search(r"Requests/sec:\s*([\d.]+)", text)
total = re.search(r"(\d+) requests in ([\d.]+)s", text)
non2xx = re.search(r"Non-2xx or 3xx responses:\s*(\d+)", text)
errs = re.search(r"Socket errors:(.*)", text)
n = int(total.group(1)) if total else 0
print(json.dumps({"bench": "wrk", "name": sys.argv[2], "rps": float(rps.group(1)) if rps else 0,
                  "requests": n, "non_2xx": int(non2xx.group(1)) if non2xx else 0,
                  "socket_errors": errs.group(1).strip() if errs else "",
                  "cpu_us_per_request": (user + system) * 1e6 / n if n else None,
                  "user_s": user, "sys_s": system, "max_rss_mib": rss_kib / 1024, "server_busy": nginx_s / seconds}))
EOF
}

run_cb() { # args... (one JSON line per run on stdout)
  log "clientbench $*"
  timeout $((CAP_SECONDS + 120)) "$CB" "$@" --max-seconds "$CAP_SECONDS" 2>>"$WORK/clientbench.log" >>"$RESULTS" \
    || log "clientbench $1 exited $?"
}

if [ -n "${BENCH_AB_BASELINE:-}" ]; then
  [ -x "$BENCH_AB_BASELINE" ] || { log "BENCH_AB_BASELINE=$BENCH_AB_BASELINE is not an executable"; exit 2; }
  CURRENT=$SB
  for round in $(seq "${BENCH_AB_ROUNDS:-2}"); do
    if [ $((round % 2)) -eq 1 ]; then order="base current"; else order="current base"; fi
    for who in $order; do
      if [ "$who" = base ]; then SB=$BENCH_AB_BASELINE; else SB=$CURRENT; fi
      run_ours "sse-$who-$round" "http://127.0.0.1:$PORT/sse" true
    done
  done
  SB=$CURRENT
  run_wrk sse "$SSE_URL" text/event-stream
  python3 - "$RESULTS" "$WORK/sse-events" "$BENCH_AB_BASELINE" "$CURRENT" <<'EOF'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
events = int(open(sys.argv[2]).read())
per = {"base": [], "current": []}
print("SSE events/s, streaming C=64 against nginx (%d events per answer)" % events)
print("  baseline: %s\n  current:  %s" % (sys.argv[3], sys.argv[4]))
for r in rows:
    if r.get("bench") == "ours":
        who = r["name"].split("-")[1]
        if r.get("error") or r.get("failed"):
            print("  %-16s FAILED %s" % (r["name"], r.get("error") or "%d failed" % r["failed"]))
            continue
        per[who].append(r["rps"] * events)
        print("  %-16s %10.0f events/s  (%.0f req/s, client CPU max %s)" % (r["name"], r["rps"] * events, r["rps"], r["client_cpu_max"]))
    elif r.get("bench") == "wrk":
        print("  %-16s %10.0f events/s  (%.0f req/s)" % ("wrk", r["rps"] * events, r["rps"]))
if per["base"] and per["current"]:
    b, c = statistics.median(per["base"]), statistics.median(per["current"])
    print("median: baseline %.0f, current %.0f events/s: current/baseline = %.3f" % (b, c, c / b))
EOF
  exit 0
fi

run_ours sse "http://127.0.0.1:$PORT/sse" true
run_wrk sse "$SSE_URL" text/event-stream
run_ours json "http://127.0.0.1:$PORT/json" false
run_wrk json "$JSON_URL" application/json

# Lean client vs QNAM pool, same harness, same endpoints, C=64.
run_cb lean --url "http://127.0.0.1:$PORT/sse" -c 64 --requests "$REQUESTS" --stream
run_cb qnam --url "http://127.0.0.1:$PORT/sse" -c 64 --requests "$REQUESTS" --stream
run_cb lean --url "http://127.0.0.1:$PORT/json" -c 64 --requests "$REQUESTS"
run_cb qnam --url "http://127.0.0.1:$PORT/json" -c 64 --requests "$REQUESTS"

# Memory: RSS growth per finished record (streaming, records written as in the product).
run_cb memory --url "http://127.0.0.1:$PORT/sse" -c 64 --requests 100000 --stream

# Exact concurrency against the in-process mock.
run_cb concurrency --levels 64,256,1024

# Client-added TTFT (client TTFT minus the mock's own, matched per request), three setups:
#  target: the mock as users run it (`sweepbench mock-server`, its own process, same priority)
#          with a decode step that grows with the batch as a real server's does: 2 ms + 0.02 ms
#          per running sequence (2.0 / 3.3 / 7.1 ms at C=1 / 64 / 256);
#  stress: the same fixed 2 ms step at every batch, mock in the client's process: at C=256 the
#          mock saturates a core (it reads requests milliseconds late), the box is
#          oversubscribed, and an IO thread that waits over 2 ms for a core has its first token
#          merged by the kernel with the next one (dated one step late);
#  stress, mock at nice 10: the same load with the cores going to the client first — shows that
#          what the stress row adds is waiting for a core, not client work.
start_mock() { # port nice args...
  local port=$1 niceness=$2; shift 2
  nice -n "$niceness" "$SB" mock-server --flavor vllm --host 127.0.0.1 --port "$port" --prefill-per-token-ms 0 \
    --max-batch 4096 "$@" >>"$WORK/mock-$port.log" 2>&1 &
  echo $! >"$WORK/mock-$port.pid"
  for _ in $(seq 100); do
    port_open "$port" && return 0
    sleep 0.1
  done
  log "mock-server on $port did not start:"; cat "$WORK/mock-$port.log" >&2; return 1
}
stop_mock() { kill "$(cat "$WORK/mock-$1.pid")" 2>/dev/null || true; wait "$(cat "$WORK/mock-$1.pid")" 2>/dev/null || true; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

MOCK_PORT=$(free_port)
if start_mock "$MOCK_PORT" 0 --step-base-ms 2 --step-per-seq-ms 0.02; then
  run_cb ttft --levels 1,64,256 --url "http://127.0.0.1:$MOCK_PORT" --label target
  stop_mock "$MOCK_PORT"
fi
run_cb ttft --levels 256 --label stress
MOCK_PORT=$(free_port)
if start_mock "$MOCK_PORT" 10 --step-base-ms 2 --step-per-seq-ms 0; then
  run_cb ttft --levels 256 --url "http://127.0.0.1:$MOCK_PORT" --label stress-nice
  stop_mock "$MOCK_PORT"
fi

# CPU per request against the mock as users run it (`sweepbench mock-server`, vLLM timing): 512
# streaming requests of 64 in / 64 out tokens, the mock pinned to one core and the client to the
# other, so every token arrives as its own event and the client's per-event cost (one read, one
# kernel timestamp, one ACK) shows. Whole process, startup included: what a user's run costs.
PIN_MOCK=() PIN_CLIENT=()
if [ "$(nproc)" -ge 2 ]; then PIN_MOCK=(taskset -c 0); PIN_CLIENT=(taskset -c 1); fi
start_cpu_mock() { # port: the mock as users run it, on its own core
  "${PIN_MOCK[@]}" "$SB" mock-server --flavor vllm --host 127.0.0.1 --port "$1" >>"$WORK/mock-$1.log" 2>&1 &
  echo $! >"$WORK/mock-$1.pid"
  for _ in $(seq 100); do
    port_open "$1" && break
    sleep 0.1
  done
}
run_mock_cpu() { # concurrency
  local c=$1 port name=mock-cpu-c$1
  port=$(free_port)
  start_cpu_mock "$port"
  cat >"$WORK/$name.yaml" <<EOF
name: $name
servers:
  - {name: mock, url: "http://127.0.0.1:$port", model: demo-model, flavor: vllm, reset_kv_cache: false}
workload: {streaming: true, input_tokens: 64, output_tokens: 64, requests_per_cell: 512, calibrate_prompts: false}
sweep: {concurrency: [$c]}
EOF
  log "sweepbench run $name: 512 requests against mock-server"
  rusage "$WORK/$name.rusage" "${PIN_CLIENT[@]}" timeout "$CAP_SECONDS" "$SB" run "$WORK/$name.yaml" --out "$WORK/run-$name" \
    >"$WORK/$name.log" 2>&1 || log "sweepbench run $name exited $?"
  stop_mock "$port"
  python3 - "$WORK/run-$name/results.json" "$WORK/$name.rusage" "$c" >>"$RESULTS" <<'EOF'
import json, sys
user, system, rss_kib = (float(x) for x in open(sys.argv[2]).read().split())
try:
    cell = json.load(open(sys.argv[1]))["cells"][0]
    done, failed = cell["requests"]["completed"], cell["requests"]["failed"]
except Exception as e:
    done, failed = 0, -1
print(json.dumps({"bench": "mock_cpu", "concurrency": int(sys.argv[3]), "completed": done, "failed": failed,
                  "cpu_ms_per_request": (user + system) * 1e3 / 512, "user_s": user, "sys_s": system,
                  "max_rss_mib": rss_kib / 1024}))
EOF
}
# The physical reference for the same figure: wrk, one thread on the client's core, against the
# same mock with a request of the same shape (a 64-word prompt made unique per request, so no
# cache serves it; max_tokens 64 with ignore_eos; streamed, with usage). Most of a streamed
# request's CPU is the kernel's (a read, a receive stamp and an ACK per token event), and wrk pays
# it too: what lies above wrk's figure is the client's own. wrk counts the answers completed when
# its time is up, not the up to C still in flight, so its figure is a few per cent high.
run_mock_cpu_wrk() { # concurrency
  local c=$1 port seconds=${BENCH_MOCK_WRK_SECONDS:-30}
  port=$(free_port)
  start_cpu_mock "$port"
  cat >"$WORK/mock-chat.lua" <<'EOF'
counter = 0
request = function()
  counter = counter + 1
  local body = '{"ignore_eos":true,"max_tokens":64,"messages":[{"content":"wrk ' .. counter .. '-' .. math.random(1, 1000000000) ..
    ' school hand program water way world problem system home people child country company point year life group week' ..
    ' night time woman student case number area thing family place work mother man state part question room day school' ..
    ' hand program water way world problem system home people child country company point year life group week night time' ..
    ' woman student case number area","role":"user"}],"model":"demo-model","stream":true,"stream_options":{"include_usage":true}}'
  return wrk.format("POST", nil, {["Content-Type"] = "application/json", ["Accept"] = "text/event-stream"}, body)
end
EOF
  log "wrk against mock-server: -t1 -c$c -d${seconds}s"
  rusage "$WORK/mock-wrk-c$c.rusage" "${PIN_CLIENT[@]}" timeout $((seconds + 60)) wrk -t1 -c"$c" -d"${seconds}s" --timeout 60s \
    -s "$WORK/mock-chat.lua" "http://127.0.0.1:$port/v1/chat/completions" >"$WORK/mock-wrk-c$c.txt" 2>&1 || true
  stop_mock "$port"
  python3 - "$WORK/mock-wrk-c$c.txt" "$WORK/mock-wrk-c$c.rusage" "$c" >>"$RESULTS" <<'EOF'
import json, re, sys
text = open(sys.argv[1]).read()
user, system, rss_kib = (float(x) for x in open(sys.argv[2]).read().split())
done = re.search(r"(\d+) requests in", text)
bad = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
n = int(done.group(1)) if done else 0
print(json.dumps({"bench": "mock_cpu_wrk", "concurrency": int(sys.argv[3]), "completed": n,
                  "non_2xx": int(bad.group(1)) if bad else 0,
                  "cpu_ms_per_request": (user + system) * 1e3 / n if n else None, "user_s": user, "sys_s": system}))
EOF
}
run_mock_cpu 64
run_mock_cpu_wrk 64
run_mock_cpu 256

# UI stall: the real main window running a C=1024 sweep, offscreen.
log "uistall: C=1024"
QT_QPA_PLATFORM=offscreen timeout $((CAP_SECONDS + 60)) "$UI" -c 1024 --requests 8192 --max-seconds "$CAP_SECONDS" \
  2>>"$WORK/uistall.log" >>"$RESULTS" || log "uistall exited $?"

python3 "$ROOT/tests/bench/report.py" "$RESULTS" "$OUT_JSON"

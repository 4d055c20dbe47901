// sweepbench-tracebench: how fast the trace reader (core/trace) summarises a large gzip'ed
// Kineto trace, beside `zcat FILE > /dev/null` on the same file (inflating alone: the floor no
// reader of a .gz gets below), and the peak RSS the read needed. Not a test: it prints figures
// (tests assert no speeds). Without FILE it writes a synthetic trace shaped like vLLM's worker
// trace (pretty-printed events: cpu ops nested three deep, python frames, one annotated step
// with execute_model per 60 events, GPU kernels), streamed to disk so that writing it costs no
// memory either.
//
//   sweepbench-tracebench [UNCOMPRESSED_MB] [FILE]   (default 2048 MB, a file in /tmp)
#include "trace/TraceSummarizer.h"
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <cstdio>
#include <sys/resource.h>
#include <zlib.h>

using namespace sb;

namespace {
QByteArray event(const char *cat, const QByteArray &name, qint64 pid, qint64 tid, double ts, double dur)
{
    return "  {\n    \"ph\": \"X\",\n    \"cat\": \"" + QByteArray(cat) + "\",\n    \"name\": \"" + name + "\",\n    \"pid\": "
           + QByteArray::number(pid) + ",\n    \"tid\": " + QByteArray::number(tid) + ",\n    \"ts\": " + QByteArray::number(ts, 'f', 3)
           + ",\n    \"dur\": " + QByteArray::number(dur, 'f', 3) + "\n    ,\n    \"args\": {\n      \"External id\": 1,\"Ev Idx\": 7\n    }\n  },\n";
}

// Writes about `mb` MB of uncompressed trace to `path`; returns the number of steps in it.
qint64 writeTrace(const QString &path, qint64 mb)
{
    gzFile gz = gzopen(QFile::encodeName(path).constData(), "wb6");
    if (!gz)
        return -1;
    const QByteArray head = "{\n  \"schemaVersion\": 1,\n  \"vllm_version\": \"0.32.0\",\n  \"host_name\": \"bench\",\n"
                            "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": 1},\n  \"traceEvents\": [\n";
    gzwrite(gz, head.constData(), unsigned(head.size()));
    qint64 written = head.size(), steps = 0;
    double ts = 5358437627195.608;
    QByteArray chunk;
    while (written < mb * 1000 * 1000) {
        chunk.clear();
        const double stepUs = 8000 + double(steps % 17) * 500;
        chunk += event("user_annotation", steps % 9 == 0 ? "execute_context_1(127)_generation_3(3)" : "execute_context_0(0)_generation_4(4)",
                       10702, 10702, ts, stepUs);
        chunk += event("python_function", "vllm/v1/worker/gpu_model_runner.py(3939): execute_model", 10702, 10702, ts, stepUs);
        for (int op = 0; op < 14; ++op) {
            const double at = ts + op * (stepUs / 15);
            chunk += event("cpu_op", "aten::linear", 10702, 10702, at, stepUs / 16);
            chunk += event("cpu_op", "aten::matmul", 10702, 10702, at + 1, stepUs / 20);
            chunk += event("cpu_op", "aten::mm", 10702, 10702, at + 2, stepUs / 24);
            chunk += event("python_function", "torch/nn/modules/module.py(1751): _call_impl", 10702, 10702, at, stepUs / 16);
            chunk += event("kernel", "ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_stages_64x3_tn", 0, 7, at + 5, stepUs / 20);
        }
        ++steps;
        ts += stepUs + 300;
        gzwrite(gz, chunk.constData(), unsigned(chunk.size()));
        written += chunk.size();
    }
    const QByteArray tail = "  {\"ph\": \"i\", \"name\": \"end\", \"pid\": 1, \"tid\": 1, \"ts\": 1}\n  ],\n  \"displayTimeUnit\": \"ms\"\n}\n";
    gzwrite(gz, tail.constData(), unsigned(tail.size()));
    return gzclose(gz) == Z_OK ? steps : -1;
}

double peakRssMb()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024;
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const qint64 mb = argc > 1 ? QByteArray(argv[1]).toLongLong() : 2048;
    QTemporaryDir dir(QStringLiteral("/tmp/sweepbench-tracebench-XXXXXX"));
    QString path = argc > 2 ? QString::fromLocal8Bit(argv[2]) : dir.filePath(QStringLiteral("rank0.bench.pt.trace.json.gz"));
    if (argc <= 2) {
        QElapsedTimer t;
        t.start();
        const qint64 steps = writeTrace(path, mb);
        if (steps < 0) {
            std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
            return 1;
        }
        std::printf("wrote %s: %lld MB uncompressed, %.1f MB gz, %lld steps, in %.1f s\n", qPrintable(path), static_cast<long long>(mb),
                    double(QFileInfo(path).size()) / 1e6, static_cast<long long>(steps), double(t.elapsed()) / 1000);
    }
    const double rssBefore = peakRssMb();

    QElapsedTimer z;
    z.start();
    const int zrc = QProcess::execute(QStringLiteral("sh"), {QStringLiteral("-c"), QStringLiteral("zcat \"$0\" > /dev/null"), path});
    const double zcatS = double(z.elapsed()) / 1000;

    QElapsedTimer r;
    r.start();
    const TraceSummary s = summarizeTraces({path});
    const double readS = double(r.elapsed()) / 1000;
    if (s.files.isEmpty()) {
        std::fprintf(stderr, "%s is not a trace file name (*.json, *.json.gz)\n", qPrintable(path));
        return 1;
    }
    const TraceFileSummary &f = s.files[0];
    // The uncompressed size, as zcat sees it: what both rates are measured against.
    QProcess wc;
    wc.start(QStringLiteral("sh"), {QStringLiteral("-c"), QStringLiteral("zcat \"$0\" | wc -c"), path});
    wc.waitForFinished(-1);
    const double textMb = wc.readAllStandardOutput().trimmed().toDouble() / 1e6;
    std::printf("trace: %.0f MB of JSON, %lld events, %lld steps (%s)%s%s\n", textMb, static_cast<long long>(f.stats.events),
                static_cast<long long>(f.stats.steps), stepSourceName(f.stepSource), f.error.isEmpty() ? "" : ", error: ",
                qPrintable(f.error));
    for (const StepKindStats &k : f.stats.stepKinds)
        std::printf("  %-8s %7lld steps  p50 %.2f ms  p99 %.2f ms  max %.2f ms  batch %.1f\n", stepKindName(k.kind), static_cast<long long>(k.count),
                    k.p50Ms, k.p99Ms, k.maxMs, k.batchMean);
    if (!f.stats.topCpuOps.isEmpty())
        std::printf("  top CPU op by self time: %s (%.1f ms)\n", qPrintable(f.stats.topCpuOps[0].name), f.stats.topCpuOps[0].ms);
    std::printf("zcat > /dev/null (floor): %6.1f s  %7.1f MB/s%s\n", zcatS, textMb / zcatS, zrc == 0 ? "" : "  (zcat failed)");
    std::printf("trace reader + summary:   %6.1f s  %7.1f MB/s  (%.2fx the floor's time)\n", readS, textMb / readS, readS / zcatS);
    std::printf("peak RSS: %.1f MB (%.1f MB before reading)\n", peakRssMb(), rssBefore);
    return f.error.isEmpty() ? 0 : 1;
}

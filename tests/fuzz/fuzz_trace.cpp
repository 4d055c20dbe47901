// Fuzzes the profiler-trace reader and summary (core/trace): the input is one trace, read as it
// is and again gzip'ed. Oracles besides "no crash, no sanitizer report, bounded memory": both
// reads give the same events, bytes and error; the caps hold (events, steps, top lists); every
// figure is finite and in its range (busy share within [0, 1], percentiles in order); and the
// summary survives results.json (toJson -> traceSummaryFromJson -> toJson is the same).
#include "FuzzSupport.h"
#include "trace/TraceAccumulator.h"
#include "trace/TraceReader.h"
#include <cmath>
#include <zlib.h>

namespace {
QByteArray gzip(const QByteArray &plain)
{
    z_stream z{};
    if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        sbfuzz::broken("deflateInit2");
    QByteArray out(qsizetype(deflateBound(&z, uLong(plain.size()))) + 64, Qt::Uninitialized);
    z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(plain.constData()));
    z.avail_in = uInt(plain.size());
    z.next_out = reinterpret_cast<Bytef *>(out.data());
    z.avail_out = uInt(out.size());
    if (deflate(&z, Z_FINISH) != Z_STREAM_END)
        sbfuzz::broken("deflate");
    out.resize(qsizetype(z.total_out));
    deflateEnd(&z);
    return out;
}

// a <= b up to rounding (interpolated percentiles of large values differ in the last bits)
bool leq(double a, double b) { return a <= b + std::abs(b) * 1e-12 + 1e-12; }

void checkStats(const sb::TraceStats &s, const sb::TraceLimits &limits)
{
    if (s.events < 0 || s.events > limits.maxEvents || !(s.spanMs >= 0) || !std::isfinite(s.spanMs))
        sbfuzz::broken("events or span out of range");
    if (s.steps < 0 || s.steps > limits.maxSteps)
        sbfuzz::broken("more steps than the cap");
    if (s.gpuBusyShare != -1 && !(s.gpuBusyShare >= 0 && s.gpuBusyShare <= 1))
        sbfuzz::broken("busy share outside [0, 1]");
    if (s.topKernels.size() > sb::kTopOps || s.topCpuOps.size() > sb::kTopOps)
        sbfuzz::broken("a top list longer than its cap");
    qint64 counted = 0;
    for (const sb::StepKindStats &k : s.stepKinds) {
        counted += k.count;
        if (!(k.p50Ms >= 0 && leq(k.p50Ms, k.p90Ms) && leq(k.p90Ms, k.p99Ms) && leq(k.p99Ms, k.maxMs) && std::isfinite(k.maxMs)))
            sbfuzz::broken("step percentiles out of order");
    }
    if (counted != std::min<qint64>(s.steps, limits.maxSteps))
        sbfuzz::broken("step kinds do not add up to the steps");
    for (const QList<sb::OpTime> *ops : {&s.topKernels, &s.topCpuOps})
        for (const sb::OpTime &op : *ops)
            if (!(op.ms >= 0) || !std::isfinite(op.ms) || op.count < 1 || op.name.size() > limits.maxNameChars)
                sbfuzz::broken("an op's figures out of range");
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    sbfuzz::quietQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    sb::TraceLimits limits;
    limits.maxEvents = 2000;
    limits.maxSteps = 300;
    limits.maxNames = 50;
    limits.maxNameChars = 40;
    limits.maxThreads = 40;
    limits.maxOpDepth = 8;
    limits.maxDepth = 16;

    sb::TraceAccumulator plain(limits);
    const sb::TraceReadResult a = sb::readTraceData(bytes, plain, limits);
    plain.finish();
    sb::TraceAccumulator packed(limits);
    const sb::TraceReadResult b = sb::readTraceData(gzip(bytes), packed, limits);
    packed.finish();
    if (a.events != b.events || a.bytes != b.bytes || a.error != b.error)
        sbfuzz::broken("the gzip'ed trace reads differently");
    if (a.events > limits.maxEvents)
        sbfuzz::broken("more events than the cap");

    sb::TraceSummary summary;
    sb::TraceFileSummary f;
    f.path = QStringLiteral("fuzz.json");
    f.error = a.error;
    f.stepSource = plain.stepSource();
    f.stats = plain.totals().stats();
    f.rank = a.meta.rank;
    f.worldSize = a.meta.worldSize;
    f.version = a.meta.version;
    f.hostName = a.meta.hostName;
    checkStats(f.stats, limits);
    summary.files.append(f);
    summary.merged = f.stats;
    const QJsonObject json = sb::toJson(summary);
    const std::optional<sb::TraceSummary> back = sb::traceSummaryFromJson(json);
    if (!back || sb::toJson(*back) != json)
        sbfuzz::broken("trace_summary does not survive results.json");
    return 0;
}

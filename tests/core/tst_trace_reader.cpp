// The profiler-trace reader and the per-cell summary (docs/traces.md): steps found per server
// family (TensorRT-LLM/SGLang step labels, vLLM annotations and execute_model, generic user
// annotations) with their kinds and percentiles, CPU self time, GPU busy share and kernels, rank
// consistency, gzip, and every hostile or cut-short input stopped with a named error.
#include "SyntheticTraces.h"
#include "TestSupport.h"
#include "engine/CellValidity.h"
#include "results/Results.h"
#include "trace/TraceAccumulator.h"
#include "trace/TraceReader.h"
#include "trace/TraceSummarizer.h"
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>
#include <zlib.h>

using namespace sb;

using sbtest::traceEvent;
using sbtest::writeTrace;

namespace {
QByteArray gzip(const QByteArray &plain)
{
    z_stream z{};
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return {};
    QByteArray out(int(deflateBound(&z, uLong(plain.size()))) + 64, Qt::Uninitialized);
    z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(plain.constData()));
    z.avail_in = uInt(plain.size());
    z.next_out = reinterpret_cast<Bytef *>(out.data());
    z.avail_out = uInt(out.size());
    const int rc = deflate(&z, Z_FINISH);
    out.resize(qsizetype(z.total_out));
    deflateEnd(&z);
    return rc == Z_STREAM_END ? out : QByteArray();
}

QByteArray kineto(const QList<QByteArray> &events, const QByteArray &meta = {})
{
    QByteArray doc = "{\n  \"schemaVersion\": 1,\n" + meta + "  \"traceEvents\": [\n";
    doc += R"({"ph":"M","name":"process_name","pid":1,"tid":0,"ts":0,"args":{"name":"worker"}})";
    for (const QByteArray &e : events)
        doc += ",\n" + e;
    doc += "\n  ],\n  \"displayTimeUnit\": \"ms\"\n}\n";
    return doc;
}

// A TensorRT-LLM rank trace: `extend` EXTEND steps of bs=4 toks=512, then `decode` DECODE steps
// of bs=4, each 10 ms apart, step k lasting (k+1) ms.
QByteArray trtllmRank(int extend, int decode)
{
    QList<QByteArray> events;
    double ts = 1000;
    for (int k = 0; k < extend + decode; ++k, ts += 10000) {
        const QString label = k < extend ? QStringLiteral("step[EXTEND bs=4 toks=512]") : QStringLiteral("step[DECODE bs=4]");
        events.append(traceEvent(label, QStringLiteral("user_annotation"), ts, (k + 1) * 1000.0));
        // Kineto copies the annotation onto the GPU stream: never a second step.
        events.append(traceEvent(label, QStringLiteral("gpu_user_annotation"), ts + 50, (k + 1) * 1000.0, 7, 0));
    }
    return kineto(events);
}

const StepKindStats *kind(const TraceStats &s, StepKind k)
{
    for (const StepKindStats &ks : s.stepKinds)
        if (ks.kind == k)
            return &ks;
    return nullptr;
}

TraceReadResult readBytes(const QByteArray &bytes, const TraceLimits &limits = {})
{
    TraceAccumulator acc(limits);
    return readTraceData(bytes, acc, limits);
}
} // namespace

class TestTraceReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init() { sbtest::failOnQtWarnings(); }

    // Two ranks of one TensorRT-LLM window, one of them missing a decode step: counts per rank
    // and kind, batch and tokens from the labels, and a warning naming both ranks. With the same
    // steps on both, no warning.
    void trtllmRanksAndMissingStep()
    {
        QTemporaryDir dir;
        const QString r0 = dir.filePath(QStringLiteral("trtllm-trace-7-rank-0.json"));
        const QString r1 = dir.filePath(QStringLiteral("trtllm-trace-7-rank-1.json"));
        QVERIFY(writeTrace(r0, trtllmRank(2, 10)));
        QVERIFY(writeTrace(r1, trtllmRank(2, 9)));
        const TraceSummary s = summarizeTraces({r0, r1, dir.filePath(QStringLiteral("notes.profiler_out.txt"))});
        QCOMPARE(s.files.size(), 2); // the text summary beside the traces is not a trace
        for (const TraceFileSummary &f : s.files)
            QVERIFY2(f.error.isEmpty(), qPrintable(f.error));
        QCOMPARE(s.files[0].rank, 0);
        QCOMPARE(s.files[1].rank, 1);
        QCOMPARE(s.files[0].profileId, QStringLiteral("7"));
        QCOMPARE(s.files[0].stepSource, StepSource::StepLabels);
        QCOMPARE(s.files[0].stats.steps, qint64(12));
        QCOMPARE(s.files[1].stats.steps, qint64(11));
        const StepKindStats *prefill = kind(s.files[0].stats, StepKind::Prefill);
        const StepKindStats *decode = kind(s.files[0].stats, StepKind::Decode);
        QVERIFY(prefill && decode);
        QCOMPARE(prefill->count, qint64(2));
        QCOMPARE(prefill->batchMean, 4.0);
        QCOMPARE(prefill->tokensMean, 512.0);
        QCOMPARE(prefill->maxMs, 2.0);
        QCOMPARE(decode->count, qint64(10));
        QCOMPARE(decode->batchMax, 4.0);
        QCOMPARE(decode->tokensMean, -1.0); // DECODE labels carry no token count
        QCOMPARE(decode->maxMs, 12.0);
        QCOMPARE(s.merged.steps, qint64(23));
        QCOMPARE(s.rankCheck, RankCheck::Mismatch);
        const QStringList w = traceWarnings(s, TraceLimits().maxFiles);
        QCOMPARE(w.size(), 1);
        QVERIFY2(w[0].contains(QStringLiteral("rank 0: 12 steps, profile 7; rank 1: 11 steps, profile 7")), qPrintable(w[0]));

        QVERIFY(writeTrace(r1, trtllmRank(2, 10)));
        const TraceSummary same = summarizeTraces({r0, r1});
        QCOMPARE(same.rankCheck, RankCheck::Consistent);
        QVERIFY(traceWarnings(same, 64).isEmpty());

        // Rank traces of different windows: the profile ids differ.
        const QString other = dir.filePath(QStringLiteral("trtllm-trace-8-rank-1.json"));
        QVERIFY(writeTrace(other, trtllmRank(2, 10)));
        const TraceSummary mixed = summarizeTraces({r0, other});
        QCOMPARE(mixed.rankCheck, RankCheck::Mismatch);
        QVERIFY(traceWarnings(mixed, 64).value(0).contains(QStringLiteral("rank 0: 12 steps, profile 7; rank 1: 12 steps, profile 8")));

        // The same rank twice (two servers' windows): not compared, not a warning.
        const TraceSummary twice = summarizeTraces({r0, r0});
        QCOMPARE(twice.rankCheck, RankCheck::Ambiguous);
    }

    // vLLM's python stacks: execute_model three calls deep per step counts once; the percentiles
    // of 100 steps lasting 1..100 ms are numpy's; the metadata is read.
    void vllmExecuteModel()
    {
        QList<QByteArray> events;
        for (int k = 1; k <= 100; ++k) {
            const double ts = k * 200000.0, dur = k * 1000.0;
            events.append(traceEvent(QStringLiteral("vllm/v1/worker/worker_base.py(365): execute_model"), QStringLiteral("python_function"), ts, dur));
            events.append(traceEvent(QStringLiteral("vllm/v1/worker/gpu_worker.py(1300): execute_model"), QStringLiteral("python_function"), ts + 1, dur - 2));
            events.append(traceEvent(QStringLiteral("vllm/v1/worker/gpu_model_runner.py(3939): execute_model"), QStringLiteral("python_function"), ts + 2, dur - 4));
        }
        const QByteArray meta = "  \"vllm_version\": \"0.32.0\", \"host_name\": \"node7\",\n  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 1, \"world_size\": 2, \"pg_config\": [{\"ranks\": [0, 1]}]},\n";
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("vm.async.pt.trace.json"));
        QVERIFY(writeTrace(path, kineto(events, meta)));
        const TraceSummary s = summarizeTraces({path});
        QCOMPARE(s.files.size(), 1);
        const TraceFileSummary &f = s.files[0];
        QVERIFY2(f.error.isEmpty(), qPrintable(f.error));
        QCOMPARE(f.stepSource, StepSource::ExecuteModel);
        QCOMPARE(f.stats.steps, qint64(100));
        QCOMPARE(f.stats.events, qint64(301));
        QCOMPARE(f.version, QStringLiteral("0.32.0"));
        QCOMPARE(f.hostName, QStringLiteral("node7"));
        QCOMPARE(f.rank, 1);
        QCOMPARE(f.worldSize, 2);
        const StepKindStats *u = kind(f.stats, StepKind::Unknown);
        QVERIFY(u);
        QCOMPARE(u->count, qint64(100));
        QCOMPARE(u->p50Ms, 50.5);
        QCOMPARE(u->p90Ms, 90.1);
        QVERIFY(qAbs(u->p99Ms - 99.01) < 1e-9);
        QCOMPARE(u->maxMs, 100.0);
        QCOMPARE(u->batchMean, -1.0);
        QCOMPARE(s.rankCheck, RankCheck::NotApplicable);
    }

    // With vLLM's step annotations the kinds, batch sizes and tokens are known; they win over
    // execute_model in the same file.
    void vllmAnnotations()
    {
        QList<QByteArray> events;
        const char *labels[] = {"execute_context_1(127)_generation_0(0)", "execute_context_0(0)_generation_3(3)",
                                "execute_context_2(300)_generation_2(2)", "execute_context_0(0)_generation_0(0)"};
        for (int k = 0; k < 4; ++k) {
            events.append(traceEvent(QStringLiteral("vllm/v1/worker/worker_base.py(365): execute_model"), QStringLiteral("python_function"), k * 1e5, 9000));
            events.append(traceEvent(QString::fromLatin1(labels[k]), QStringLiteral("user_annotation"), k * 1e5 + 10, 8000 - k * 1000));
        }
        TraceAccumulator acc({});
        const TraceReadResult r = readTraceData(kineto(events), acc);
        QVERIFY2(r.ok(), qPrintable(r.error));
        acc.finish();
        QCOMPARE(acc.stepSource(), StepSource::VllmAnnotations);
        const TraceStats s = acc.totals().stats();
        QCOMPARE(s.steps, qint64(4));
        const StepKindStats *prefill = kind(s, StepKind::Prefill);
        const StepKindStats *decode = kind(s, StepKind::Decode);
        const StepKindStats *mixed = kind(s, StepKind::Mixed);
        const StepKindStats *unknown = kind(s, StepKind::Unknown);
        QVERIFY(prefill && decode && mixed && unknown);
        QCOMPARE(prefill->tokensMean, 127.0);
        QCOMPARE(prefill->batchMean, 1.0);
        QCOMPARE(decode->batchMean, 3.0);
        QCOMPARE(mixed->batchMean, 4.0);
        QCOMPARE(mixed->tokensMax, 302.0);
        QCOMPARE(mixed->p50Ms, 6.0);
    }

    // No server's step names: top-level user annotations are the steps (nested ones are not).
    void genericAnnotations()
    {
        QList<QByteArray> events;
        for (int k = 0; k < 5; ++k) {
            events.append(traceEvent(QStringLiteral("ProfilerStep#%1").arg(k), QStringLiteral("user_annotation"), k * 1e4, 5000));
            events.append(traceEvent(QStringLiteral("inner"), QStringLiteral("user_annotation"), k * 1e4 + 10, 100));
        }
        TraceAccumulator acc({});
        QVERIFY(readTraceData(kineto(events), acc).ok());
        acc.finish();
        QCOMPARE(acc.stepSource(), StepSource::UserAnnotations);
        QCOMPARE(acc.totals().stats().steps, qint64(5));
    }

    // Begin/end pairs (ph B ... E on one thread) are steps as complete events are: an E closes the
    // innermost open B; an E without a B and a B never closed are no steps; nesting deeper than
    // the cap is skipped without unbalancing the pairs after it.
    void beginEndPairsAreSteps()
    {
        const auto be = [](char ph, const QString &name, double ts, int tid = 1) {
            return QStringLiteral(R"({"ph":"%1","cat":"user_annotation","name":"%2","pid":1,"tid":%3,"ts":%4})")
                .arg(QString(QLatin1Char(ph)), name)
                .arg(tid)
                .arg(ts, 0, 'f', 3)
                .toUtf8();
        };
        QList<QByteArray> events{be('E', QStringLiteral("left over"), 10)}; // its B was before the window
        for (int k = 0; k < 4; ++k) {
            const double ts = 1000 + k * 10000;
            const QString label = k < 1 ? QStringLiteral("step[EXTEND bs=2 toks=256]") : QStringLiteral("step[DECODE bs=%1]").arg(k + 1);
            events.append(be('B', label, ts));
            events.append(be('B', QStringLiteral("inner"), ts + 10));
            events.append(be('E', QString(), ts + 20)); // closes "inner"
            events.append(be('E', QString(), ts + (k + 1) * 1000.0)); // closes the step: (k+1) ms
        }
        events.append(be('B', QStringLiteral("step[DECODE bs=9]"), 90000)); // never closed
        TraceAccumulator acc({});
        QVERIFY(readTraceData(kineto(events), acc).ok());
        acc.finish();
        QCOMPARE(acc.stepSource(), StepSource::StepLabels);
        const TraceStats st = acc.totals().stats();
        QCOMPARE(st.steps, qint64(4));
        const StepKindStats *prefill = kind(st, StepKind::Prefill);
        const StepKindStats *decode = kind(st, StepKind::Decode);
        QVERIFY(prefill && decode);
        QCOMPARE(prefill->count, qint64(1));
        QCOMPARE(prefill->maxMs, 1.0);
        QCOMPARE(decode->count, qint64(3));
        QCOMPARE(decode->maxMs, 4.0);
        QCOMPARE(decode->batchMax, 4.0);

        // Past the nesting cap the extra pairs are skipped and the outer pair still matches.
        TraceLimits limits;
        limits.maxOpDepth = 2;
        QList<QByteArray> deep{be('B', QStringLiteral("step[DECODE bs=1]"), 0)};
        for (int d = 0; d < 5; ++d)
            deep.append(be('B', QStringLiteral("n%1").arg(d), 1 + d));
        for (int d = 0; d < 5; ++d)
            deep.append(be('E', QString(), 100 + d));
        deep.append(be('E', QString(), 3000));
        TraceAccumulator capped(limits);
        QVERIFY(readTraceData(kineto(deep), capped, limits).ok());
        capped.finish();
        const TraceStats cs = capped.totals().stats();
        QCOMPARE(cs.steps, qint64(1));
        QCOMPARE(kind(cs, StepKind::Decode)->maxMs, 3.0);
    }

    // CPU ops: self time is the op's time minus its children's; GPU: kernels on two overlapping
    // streams of one device count once towards its busy share; kernels ranked by total time.
    void cpuSelfTimeAndGpu()
    {
        const QList<QByteArray> events = {
            traceEvent(QStringLiteral("aten::linear"), QStringLiteral("cpu_op"), 0, 10000),
            traceEvent(QStringLiteral("aten::matmul"), QStringLiteral("cpu_op"), 1000, 4000),
            traceEvent(QStringLiteral("aten::add"), QStringLiteral("cpu_op"), 20000, 1000),
            traceEvent(QStringLiteral("gemm"), QStringLiteral("kernel"), 0, 40000, 7, 0),
            traceEvent(QStringLiteral("gemm"), QStringLiteral("kernel"), 30000, 20000, 8, 0), // overlaps: busy 0..50 ms
            traceEvent(QStringLiteral("softmax"), QStringLiteral("kernel"), 60000, 5000, 7, 0),
            traceEvent(QStringLiteral("Memcpy HtoD"), QStringLiteral("gpu_memcpy"), 90000, 10000, 9, 0),
        };
        TraceAccumulator acc({});
        QVERIFY(readTraceData(kineto(events), acc).ok());
        acc.finish();
        const TraceStats s = acc.totals().stats();
        QCOMPARE(s.spanMs, 100.0);
        QCOMPARE(s.gpuBusyShare, 0.65); // 50 + 5 + 10 ms of 100
        QCOMPARE(s.topKernels.size(), 2);
        QCOMPARE(s.topKernels[0].name, QStringLiteral("gemm"));
        QCOMPARE(s.topKernels[0].ms, 60.0);
        QCOMPARE(s.topKernels[0].count, qint64(2));
        QCOMPARE(s.topCpuOps.size(), 3);
        QCOMPARE(s.topCpuOps[0].name, QStringLiteral("aten::linear"));
        QCOMPARE(s.topCpuOps[0].ms, 6.0);
        QCOMPARE(s.topCpuOps[1].name, QStringLiteral("aten::matmul"));
        QCOMPARE(s.topCpuOps[1].ms, 4.0);
        // A CPU-only trace has no GPU figures.
        TraceAccumulator cpu({});
        QVERIFY(readTraceData(kineto({events[0]}), cpu).ok());
        cpu.finish();
        QCOMPARE(cpu.totals().stats().gpuBusyShare, -1.0);
    }

    // gzip (also several members one after another) reads as the plain text does; a gzip file
    // cut short or corrupt is named, and what came before still counts.
    void gzipTraces()
    {
        const QByteArray plain = trtllmRank(3, 30);
        QTemporaryDir dir;
        const QString gz = dir.filePath(QStringLiteral("trtllm-trace-1-rank-0.json.gz"));
        QVERIFY(writeTrace(gz, gzip(plain)));
        const TraceSummary s = summarizeTraces({gz});
        QVERIFY2(s.files.value(0).error.isEmpty(), qPrintable(s.files.value(0).error));
        QCOMPARE(s.files[0].stats.steps, qint64(33));
        QCOMPARE(s.files[0].stats.events, qint64(67));

        const int half = int(plain.size() / 2);
        const TraceReadResult two = readBytes(gzip(plain.left(half)) + gzip(plain.mid(half)));
        QVERIFY2(two.ok(), qPrintable(two.error));
        QCOMPARE(two.events, qint64(67));

        const QByteArray packed = gzip(plain);
        const TraceReadResult cut = readBytes(packed.left(packed.size() / 2));
        QVERIFY2(cut.error.contains(QStringLiteral("gzip data ends early")), qPrintable(cut.error));
        QVERIFY(cut.events > 0 && cut.events < 67);
        QByteArray corrupt = packed; // the trailer's CRC: every byte inflates, the check fails at the end
        corrupt[corrupt.size() - 8] = char(corrupt[corrupt.size() - 8] ^ 0x5a);
        QVERIFY2(readBytes(corrupt).error.contains(QStringLiteral("corrupt gzip data")), qPrintable(readBytes(corrupt).error));
    }

    // Every size a trace controls is capped, and bad input is named with where it was found.
    void hostileInputs_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("error");
        const QByteArray ev = traceEvent(QStringLiteral("a"), QStringLiteral("cpu_op"), 1, 1);
        QTest::newRow("huge string") << ("{\"traceEvents\":[{\"name\":\"" + QByteArray(3 << 20, 'x') + "\"}]}")
                                     << QStringLiteral("bytes without a complete JSON token");
        QTest::newRow("huge number") << ("[{\"ts\":0." + QByteArray(3 << 20, '1') + "}]") << QStringLiteral("bytes without a complete JSON token");
        QTest::newRow("endless blank") << ("[" + QByteArray(3 << 20, ' ') + "]") << QStringLiteral("bytes without a complete JSON token");
        QTest::newRow("deep nesting") << ("{\"traceEvents\":[{\"args\":" + QByteArray(100000, '[')) << QStringLiteral("nested deeper than 64");
        QTest::newRow("string ts") << QByteArray("{\"traceEvents\":[" + ev + ",{\"ph\":\"X\",\"ts\":\"abc\",\"dur\":1}]}")
                                   << QStringLiteral("event 1: \"ts\" is not a number");
        QTest::newRow("bool dur") << QByteArray("[{\"ph\":\"X\",\"ts\":1,\"dur\":true}]") << QStringLiteral("event 0: \"dur\" is not a number");
        QTest::newRow("object ts") << QByteArray("[{\"ph\":\"X\",\"ts\":{\"a\":1}}]") << QStringLiteral("event 0: \"ts\" is not a number");
        QTest::newRow("number overflowing a double") << QByteArray("[{\"ph\":\"X\",\"ts\":1e999}]") << QStringLiteral("Number too big");
        QTest::newRow("cut short") << QByteArray("{\"traceEvents\":[" + ev + "," + ev + ",{\"ph\":\"X\",\"na")
                                   << QStringLiteral("after 2 events; a trace cut short ends like this");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("the file is empty");
        QTest::newRow("not a trace") << QByteArray("42") << QStringLiteral("not a trace");
        QTest::newRow("no events") << QByteArray("{\"schemaVersion\":1}") << QStringLiteral("no \"traceEvents\" array");
        QTest::newRow("array inside events") << QByteArray("[[1]]") << QStringLiteral("traceEvents[0] is an array");
        QTest::newRow("garbage after") << QByteArray("[] x") << QStringLiteral("byte 3:");
    }
    void hostileInputs()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, error);
        const TraceReadResult r = readBytes(bytes);
        QVERIFY2(r.error.contains(error), qPrintable(r.error));
    }

    // Ten million events against a cap just below: the read stops at the cap, named.
    void eventCap()
    {
        QByteArray many;
        many.reserve(30000010);
        many += '[';
        for (int i = 0; i < 10000000; ++i)
            many += i ? ",{}" : "{}";
        many += ']';
        TraceLimits limits;
        limits.maxEvents = 9999999;
        const TraceReadResult r = readBytes(gzip(many), limits);
        QVERIFY2(r.error.contains(QStringLiteral("more than 9999999 events")), qPrintable(r.error));
        QCOMPARE(r.events, qint64(9999999));
        limits.maxEvents = 10000000;
        QVERIFY(readBytes(gzip(many), limits).ok());
    }

    // Steps, names, uncompressed bytes and files are capped too.
    void otherCaps()
    {
        TraceLimits limits;
        limits.maxSteps = 5;
        QVERIFY(readBytes(trtllmRank(2, 10), limits).error.contains(QStringLiteral("more than 5 engine steps")));
        limits = TraceLimits();
        limits.maxUncompressedBytes = 300 * 1024;
        const QByteArray big = trtllmRank(0, 5000);
        QVERIFY(big.size() > 600 * 1024);
        QVERIFY(readBytes(gzip(big), limits).error.contains(QStringLiteral("bytes of JSON (the cap on a trace)")));

        limits = TraceLimits();
        limits.maxNames = 3;
        QList<QByteArray> events;
        for (int i = 0; i < 10; ++i)
            events.append(traceEvent(QStringLiteral("op%1").arg(i), QStringLiteral("cpu_op"), i * 10.0, 1));
        TraceAccumulator acc(limits);
        QVERIFY(readTraceData(kineto(events), acc, limits).ok());
        acc.finish();
        const QList<OpTime> ops = acc.totals().stats().topCpuOps;
        QCOMPARE(ops.size(), 4);
        QVERIFY(std::any_of(ops.begin(), ops.end(), [](const OpTime &o) { return o.name == QLatin1String("(other names)") && o.count == 7; }));

        QTemporaryDir dir;
        QStringList paths;
        limits = TraceLimits();
        limits.maxFiles = 2;
        for (int i = 0; i < 4; ++i) {
            paths.append(dir.filePath(QStringLiteral("t%1.json").arg(i)));
            QVERIFY(writeTrace(paths.last(), trtllmRank(1, 1)));
        }
        const TraceSummary s = summarizeTraces(paths, limits);
        QCOMPARE(s.files.size(), 2);
        QCOMPARE(s.filesNotRead, 2);
        QVERIFY(traceWarnings(s, limits.maxFiles).value(0).contains(QStringLiteral("2 more trace files were not summarised")));
    }

    // A FIFO named as a trace is refused without being opened (it would block), and a missing
    // file is named; both become the file's error and a warning.
    void notRegularFiles()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("rank0.fifo.json"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const TraceSummary s = summarizeTraces({fifo, dir.filePath(QStringLiteral("gone.json"))});
        QCOMPARE(s.files.size(), 2);
        QVERIFY2(!s.files[0].error.isEmpty(), "a FIFO must be refused");
        QVERIFY(!s.files[1].error.isEmpty());
        QCOMPARE(traceWarnings(s, 64).size(), 2);
    }

    // trace_summary survives results.json: written, read back, the same figures.
    void summaryRoundTrip()
    {
        QTemporaryDir dir;
        const QString r0 = dir.filePath(QStringLiteral("trtllm-trace-7-rank-0.json"));
        const QString r1 = dir.filePath(QStringLiteral("trtllm-trace-7-rank-1.json"));
        QVERIFY(writeTrace(r0, trtllmRank(2, 10)));
        QVERIFY(writeTrace(r1, kineto({traceEvent(QStringLiteral("gemm"), QStringLiteral("kernel"), 0, 10, 7, 0),
                                       traceEvent(QStringLiteral("aten::mm"), QStringLiteral("cpu_op"), 0, 20)})));
        CellResult cell;
        cell.server = QStringLiteral("s");
        cell.traceSummary = summarizeTraces({r0, r1});
        const CellResult back = cellResultFromJson(toJson(cell));
        QVERIFY(back.traceSummary);
        QCOMPARE(toJson(*back.traceSummary), toJson(*cell.traceSummary));
        QCOMPARE(back.traceSummary->files[0].stats.stepKinds.size(), 2);
        QCOMPARE(back.traceSummary->files[0].stats.stepKinds[0].tokensMean, 512.0);
        QCOMPARE(back.traceSummary->files[1].stats.topKernels.value(0).name, QStringLiteral("gemm"));
        QCOMPARE(back.traceSummary->rankCheck, RankCheck::Mismatch);
        QVERIFY(!cellResultFromJson(toJson(CellResult())).traceSummary);
    }
};

QTEST_GUILESS_MAIN(TestTraceReader)
#include "tst_trace_reader.moc"

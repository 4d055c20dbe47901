#pragma once
// Synthetic Kineto traces in TensorRT-LLM's shape for the step-timeline tests: a rank's file with
// `extend` step[EXTEND bs=4 toks=512] steps then `decode` step[DECODE bs=4] steps, each 10 ms
// apart from 1000 µs on, step k lasting (k+1) ms, every annotation copied onto the GPU stream as
// Kineto does (never a second step), and optionally `filler` cpu_op events to make the file big.
#include "trace/TraceSteps.h"
#include <QByteArray>
#include <QFile>
#include <QString>

namespace sbtest {

inline QByteArray traceEvent(const QString &name, const QString &cat, double ts, double dur, int tid = 1, int pid = 1)
{
    return QStringLiteral(R"({"ph":"X","cat":"%1","name":"%2","pid":%3,"tid":%4,"ts":%5,"dur":%6,"args":{"External id":7}})")
        .arg(cat, name)
        .arg(pid)
        .arg(tid)
        .arg(ts, 0, 'f', 3)
        .arg(dur, 0, 'f', 3)
        .toUtf8();
}

// Start of step k (µs on the trace's clock) and its duration.
inline double syntheticStepStart(int k) { return 1000 + 10000.0 * k; }
inline double syntheticStepDur(int k) { return (k + 1) * 1000.0; }

// `reversed`: the steps written last first (a file need not be in time order).
inline QByteArray trtllmRankTrace(int rank, int extend, int decode, qint64 filler = 0, bool reversed = false)
{
    QByteArray doc = "{\n  \"schemaVersion\": 1,\n  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": " + QByteArray::number(rank)
                     + ", \"world_size\": 2},\n  \"traceEvents\": [\n";
    doc += R"({"ph":"M","name":"process_name","pid":1,"tid":0,"ts":0,"args":{"name":"worker"}})";
    const int n = extend + decode;
    for (int i = 0; i < n; ++i) {
        const int k = reversed ? n - 1 - i : i;
        const QString label = k < extend ? QStringLiteral("step[EXTEND bs=4 toks=512]") : QStringLiteral("step[DECODE bs=4]");
        doc += ",\n" + traceEvent(label, QStringLiteral("user_annotation"), syntheticStepStart(k), syntheticStepDur(k));
        doc += ",\n" + traceEvent(label, QStringLiteral("gpu_user_annotation"), syntheticStepStart(k) + 50, syntheticStepDur(k), 7, 0);
        doc += ",\n" + traceEvent(QStringLiteral("aten::linear"), QStringLiteral("cpu_op"), syntheticStepStart(k) + 10, 200);
        doc += ",\n" + traceEvent(QStringLiteral("sm80_xmma_gemm_bf16"), QStringLiteral("kernel"), syntheticStepStart(k) + 60, 400, 7, 0);
    }
    for (qint64 i = 0; i < filler; ++i)
        doc += ",\n" + traceEvent(QStringLiteral("aten::add"), QStringLiteral("cpu_op"), 1000 + double(i % 100000), 1, 2);
    doc += "\n  ],\n  \"displayTimeUnit\": \"ms\"\n}\n";
    return doc;
}

inline bool writeTrace(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size() && f.flush();
}

// How many of a lane's steps are of kind k.
inline qint64 countKind(const sb::StepLane &l, sb::StepKind k)
{
    qint64 n = 0;
    for (const sb::TimelineStep &s : l.steps)
        n += s.kind == k;
    return n;
}

} // namespace sbtest

#pragma once
// Reads a Chrome trace-event / Kineto (PyTorch profiler) JSON trace as a stream: the object form
// {"traceEvents": [...], ...metadata} or the bare array of events, plain or gzip. Each event is
// handed to a sink as it is parsed and then forgotten, so memory does not grow with the file.
// Parsed with RapidJSON's SAX reader (nesting capped before it deepens the C++ stack): Qt's
// QJsonDocument would need the whole document in memory, ~30-40 bytes per value on top of the text.
#include "trace/TraceLimits.h"
#include <QByteArray>
#include <QString>
#include <atomic>
#include <cmath>
#include <string_view>

namespace sb {

struct TraceEvent {
    char ph = 0;                 // phase: X complete, B/E begin/end, i instant, M metadata, ...
    std::string_view name, cat;  // valid during the sink call only
    qint64 pid = 0, tid = 0;     // a string pid/tid ("stream 7") is hashed to a number
    double ts = NAN;             // microseconds; NaN when absent
    double dur = NAN;            // microseconds; NaN when absent
};

// What the top level of a Kineto trace says about where it came from.
struct TraceMetadata {
    QString version;   // vllm_version
    QString hostName;  // host_name
    int rank = -1;     // distributedInfo.rank
    int worldSize = -1; // distributedInfo.world_size
};

class TraceEventSink
{
public:
    virtual ~TraceEventSink() = default;
    // False stops the read; *error then says why (it becomes the read's error).
    virtual bool event(const TraceEvent &e, QString *error) = 0;
};

struct TraceReadResult {
    QString error;        // empty when the whole trace was read; else what stopped it, where
    qint64 events = 0;    // handed to the sink
    qint64 bytes = 0;     // JSON text read (uncompressed)
    bool gzip = false;
    TraceMetadata meta;
    bool ok() const { return error.isEmpty(); }
};

// `cancel` is polled before each block (256 KiB) is read; `rawBytesRead`, when given, grows by the
// bytes taken from the file as they are read (TraceInput), for a progress bar on another thread.
TraceReadResult readTraceFile(const QString &path, TraceEventSink &sink, const TraceLimits &limits = {},
                              const std::atomic<bool> *cancel = nullptr, std::atomic<qint64> *rawBytesRead = nullptr);
// The same from bytes in memory (plain or gzip).
TraceReadResult readTraceData(const QByteArray &data, TraceEventSink &sink, const TraceLimits &limits = {},
                              const std::atomic<bool> *cancel = nullptr);

} // namespace sb

#pragma once
// Caps on everything a profiler trace controls (docs/traces.md "Bounds"). A trace is written by
// the server under test, or handed over by anyone, so a file decides none of these: a trace that
// reaches one stops being read with an error naming the cap, and what was read is still summed up.
#include <QtGlobal>

namespace sb {

struct TraceLimits {
    qint64 maxFileBytes = qint64(16) << 30;         // on disk (compressed or not)
    qint64 maxUncompressedBytes = qint64(16) << 30; // JSON text read: ~3 minutes at the reader's speed
    qint64 maxEvents = 50'000'000;                   // a 2 GB Kineto trace holds ~7.5 million
    qint64 maxTokenBytes = qint64(1) << 20;          // one string or number, or the blank space between two
    int maxDepth = 64;                               // nested objects and arrays (Kineto's go 4 deep)
    int maxNames = 10'000;                           // distinct op and kernel names counted; the rest pooled
    int maxNameChars = 256;                          // an op name kept longer than this is cut
    qint64 maxSteps = 500'000;                       // engine steps kept per rule and file
    int maxThreads = 10'000;                         // threads and GPU devices followed (op nesting, busy time)
    int maxOpDepth = 64;                             // nested CPU ops followed per thread for self time
    int maxFiles = 64;                               // trace files summarised per cell
    int maxRank = 65'535;                            // a larger rank or world size is not believed
};

} // namespace sb

#pragma once
// Per-request samples of one cell, read from its records.jsonl for the distribution plot: the
// reader of the lines load/RecordLine writes, beside it so the format has one home
// (docs/ARCHITECTURE.md §8). Blocking file IO: call it on a worker thread (QtConcurrent::run),
// never on the UI thread.
#include <QList>
#include <QString>

namespace sb {

struct CellRecordSamples {
    QList<double> ttftMs;    // requests that produced a token
    QList<double> itlMs;     // requests with >= 2 output tokens
    QList<double> latencyMs; // successful requests
    QList<double> ttfoMs;    // requests that produced an answer token (ttfo_ms; all-thinking answers have none)
    bool reasoned = false;   // some answer reasoned (reasoning_tokens > 0): TTFO then differs from TTFT
    // workload.sessions: the turn of each sample above, in the same order (empty without sessions)
    QList<int> ttftTurns, itlTurns, latencyTurns, ttfoTurns;
    int maxTurn = 0;         // 0 = no sessions
    int records = 0;         // lines parsed
    int failed = 0;          // records with ok == false (not in the samples)
    int malformed = 0;       // lines that were not JSON objects
    QString error;           // file could not be opened
};

CellRecordSamples readCellRecords(const QString &path);

} // namespace sb

#pragma once
// Where a result set came from, for every set alike, measured or imported: the tool and its
// version, what it was asked to do (its command line, or the settings it recorded when it keeps
// no command), the host, when it ran, and what the servers said they were. Results and Compare
// show it, and Compare names what differs between the sets it compares, so a comparison across
// tools or machines says so instead of leaving it to the reader.
#include "results/Results.h"
#include <QList>
#include <QString>

namespace sb {

struct ProvenanceField {
    QString key;   // "tool", "command", "host", "started", "servers"
    QString label; // "Tool", "Command or settings", ...
    QString value; // empty when the source does not say
};

// In display order, every key present (a value the source lacks is empty).
QList<ProvenanceField> provenanceOf(const SweepResults &r);
// "sweepbench 0.1.0 on gpu-7 (Debian 12), 2026-12-03 10:42 · vllm-a: vLLM 0.32.0" — one line.
QString provenanceLine(const SweepResults &r);
// For each field whose value is not the same in every set: "Tool: sweepbench 0.1.0 | aiperf 0.13.0".
// Values the sources do not give are shown as "unknown" (and do not count as a difference alone).
// Start times and servers are left out: runs always differ in time, and server differences have
// their own sentence (results/ServerInfo.h).
QStringList provenanceDifferences(const QList<const SweepResults *> &sets);

} // namespace sb

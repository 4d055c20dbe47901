#pragma once
// What an open-loop cell (a request-rate point) adds to its results.json entry: the target and
// the achieved rate, how late the client sent against the schedule, and the client queue that
// the max_concurrency cap made (docs/spec-reference.md, "Open-loop cells").
#include <QJsonObject>
#include <QString>

namespace sb {

struct OpenLoopResult {
    double targetRate = 0;        // requests/s asked for (the sweep point)
    QString arrival;              // constant | poisson | gamma
    double burstiness = 1;
    QString rateMean = QStringLiteral("sampled"); // sampled | exact: the gaps were rescaled to the target's mean
    double traceSpeed = 0;        // arrival trace: target rate / the trace's own mean rate (2 = twice as fast); 0 otherwise
    int seed = 0;
    int maxConcurrency = 0;
    double achievedRate = 0;      // sent requests - 1 over first send -> last send; 0 with fewer than 2
    // Schedule lag: actual send - when the request could first be sent (its scheduled time, or
    // when a slot freed for a queued one): the client's own lateness, in ms.
    double lagP50Ms = 0, lagP99Ms = 0, lagMaxMs = 0;
    // Client queue: time a request waited for a free slot because max_concurrency were in flight.
    int queued = 0;               // requests that waited
    double queueP50Ms = 0, queueP99Ms = 0, queueMaxMs = 0;
    bool capHit = false;          // some request waited for a slot
};

QJsonObject toJson(const OpenLoopResult &o);
OpenLoopResult openLoopResultFromJson(const QJsonObject &o);

} // namespace sb

#pragma once
// One records.jsonl line per measured request (the format is in README "Results layout").
// Hand-formatted: it runs once per request and must not build a JSON DOM.
#include "load/RequestRecord.h"
#include <QByteArray>
#include <cstdint>
#include <vector>

namespace sb {

struct RecordLineInput {
    const RequestRecord *record = nullptr;
    std::int64_t phaseStartNs = 0;              // times are written relative to it
    QByteArray requestId;                       // the X-Request-Id that was sent
    QByteArray origin;                          // written when non-empty (servers with several URLs)
    QByteArray errorKey;                        // http_500, timeout, ... ("" when ok)
    QByteArray errorJson;                       // the error sample as a JSON string literal ("" when ok)
    QByteArray timingsJson;                     // the server's timing object, compact JSON, or empty
    const std::vector<std::uint32_t> *gapsUs = nullptr; // inter-chunk gaps, at most kMaxRecordGaps
    std::uint32_t gapsOmitted = 0;              // gaps past kMaxRecordGaps, not listed
};

void appendRecordLine(QByteArray &out, const RecordLineInput &in);

} // namespace sb

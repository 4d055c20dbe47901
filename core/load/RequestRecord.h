#pragma once
// Compact per-request record kept in memory for metrics (~56 bytes). Inter-chunk gaps are not
// kept here: they go straight to the cell's histogram and to records.jsonl, so memory stays
// flat per finished request whatever the output length.
#include <cstdint>

namespace sb {

enum class ErrorKind : std::uint8_t { None, Http, Timeout, Connection, Protocol, Cancelled };
const char *errorKindName(ErrorKind kind); // "", "http", "timeout", "connection", "protocol", "cancelled"

struct RequestRecord {
    std::int64_t queueNs = 0;       // slot became free and the request was taken (steady clock)
    std::int64_t sendNs = 0;        // request bytes handed to the socket
    std::int64_t firstTokenNs = -1; // first chunk with non-empty content; -1 = none
    std::int64_t lastTokenNs = -1;  // last content chunk
    std::int64_t endNs = 0;         // last byte of the response
    std::int32_t status = 0;        // HTTP status; 0 = no response
    std::int32_t inputTokens = -1;  // from usage, else the requested prompt length
    std::int32_t outputTokens = 0;  // from usage, else counted content chunks
    std::int32_t ticket = 0;        // request number within the phase
    ErrorKind error = ErrorKind::None;
    bool usageTokens = false;       // outputTokens came from the server's usage block
    bool ok() const { return error == ErrorKind::None; }
};

} // namespace sb

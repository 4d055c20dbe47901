#include "load/RequestRecord.h"
#include <algorithm>

namespace sb {

std::int64_t streamEventLimit(int maxTokens)
{
    constexpr std::int64_t kUnknownMaxTokens = std::int64_t(1) << 20;
    const std::int64_t m = maxTokens >= 1 ? maxTokens : kUnknownMaxTokens;
    return std::max(2 * m, m + 64);
}

const char *errorKindName(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::None: return "";
    case ErrorKind::Http: return "http";
    case ErrorKind::Timeout: return "timeout";
    case ErrorKind::Connection: return "connection";
    case ErrorKind::Protocol: return "protocol";
    case ErrorKind::Cancelled: return "cancelled";
    case ErrorKind::BadJson: return "bad_json";
    case ErrorKind::EmptyStream: return "empty_stream";
    case ErrorKind::ServerErrorBody: return "server_error_body";
    case ErrorKind::BadUsage: return "bad_usage";
    case ErrorKind::Oversize: return "oversize";
    case ErrorKind::ContentEncoding: return "content_encoding";
    case ErrorKind::TooManyChunks: return "too_many_chunks";
    }
    return "";
}

QString errorKey(ErrorKind kind, int status)
{
    return kind == ErrorKind::Http ? QStringLiteral("http_%1").arg(status) : QString::fromLatin1(errorKindName(kind));
}

} // namespace sb

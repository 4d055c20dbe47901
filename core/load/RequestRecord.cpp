#include "load/RequestRecord.h"

namespace sb {

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
    }
    return "";
}

} // namespace sb

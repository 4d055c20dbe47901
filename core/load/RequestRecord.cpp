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
    }
    return "";
}

} // namespace sb

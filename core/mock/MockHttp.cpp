#include "mock/MockHttp.h"

namespace sb {

namespace {
constexpr qsizetype kMaxHeaderBytes = 64 * 1024;
constexpr qsizetype kMaxBodyBytes = 64 * 1024 * 1024;

QByteArray trimmed(QByteArrayView v)
{
    return v.trimmed().toByteArray();
}
} // namespace

QByteArray MockHttpRequest::header(QByteArrayView lowerName) const
{
    for (const auto &h : headers)
        if (h.first == lowerName)
            return h.second;
    return {};
}

QByteArray MockHttpRequest::queryValue(QByteArrayView name, bool *found) const
{
    if (found)
        *found = false;
    for (const QByteArray &pair : query.split('&')) {
        const qsizetype eq = pair.indexOf('=');
        const QByteArray key = eq < 0 ? pair : pair.left(eq);
        if (QByteArray::fromPercentEncoding(key) == name) {
            if (found)
                *found = true;
            QByteArray v = eq < 0 ? QByteArray() : pair.mid(eq + 1);
            v.replace('+', ' ');
            return QByteArray::fromPercentEncoding(v);
        }
    }
    return {};
}

MockParse parseHttpRequest(QByteArray &buffer, MockHttpRequest &out, int *status)
{
    // Tolerate stray CRLFs between keep-alive requests (RFC 9112 §2.2).
    qsizetype start = 0;
    while (start + 1 < buffer.size() && buffer[start] == '\r' && buffer[start + 1] == '\n')
        start += 2;
    const qsizetype headEnd = buffer.indexOf("\r\n\r\n", start);
    if (headEnd < 0) {
        if (buffer.size() - start > kMaxHeaderBytes) {
            *status = 431;
            return MockParse::Error;
        }
        return MockParse::NeedMore;
    }
    const QByteArrayView head(buffer.constData() + start, headEnd - start);
    qsizetype lineEnd = head.indexOf("\r\n");
    if (lineEnd < 0)
        lineEnd = head.size();
    const QByteArrayView requestLine = head.first(lineEnd);
    const qsizetype sp1 = requestLine.indexOf(' ');
    const qsizetype sp2 = requestLine.lastIndexOf(' ');
    if (sp1 <= 0 || sp2 <= sp1 || !requestLine.sliced(sp2 + 1).startsWith("HTTP/1.")) {
        *status = 400;
        return MockParse::Error;
    }
    MockHttpRequest req;
    req.method = requestLine.first(sp1).toByteArray();
    req.target = requestLine.sliced(sp1 + 1, sp2 - sp1 - 1).toByteArray();
    const bool http10 = requestLine.sliced(sp2 + 1) == "HTTP/1.0";
    const qsizetype q = req.target.indexOf('?');
    req.path = q < 0 ? req.target : req.target.left(q);
    req.query = q < 0 ? QByteArray() : req.target.mid(q + 1);

    qsizetype contentLength = 0;
    QByteArray connection;
    qsizetype pos = lineEnd + 2;
    while (pos < head.size()) {
        qsizetype e = head.indexOf("\r\n", pos);
        if (e < 0)
            e = head.size();
        const QByteArrayView line = head.sliced(pos, e - pos);
        pos = e + 2;
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0) {
            *status = 400;
            return MockParse::Error;
        }
        QByteArray name = line.first(colon).toByteArray().toLower();
        QByteArray value = trimmed(line.sliced(colon + 1));
        if (name == "content-length") {
            bool ok = false;
            contentLength = value.toLongLong(&ok);
            if (!ok || contentLength < 0) {
                *status = 400;
                return MockParse::Error;
            }
            if (contentLength > kMaxBodyBytes) {
                *status = 413;
                return MockParse::Error;
            }
        } else if (name == "transfer-encoding") {
            *status = 501; // chunked uploads: no benchmark client sends them
            return MockParse::Error;
        } else if (name == "connection") {
            connection = value.toLower();
        }
        req.headers.append({std::move(name), std::move(value)});
    }
    const qsizetype bodyStart = headEnd + 4;
    if (buffer.size() - bodyStart < contentLength)
        return MockParse::NeedMore;
    req.body = buffer.mid(bodyStart, contentLength);
    req.keepAlive = http10 ? connection.contains("keep-alive") : !connection.contains("close");
    buffer.remove(0, bodyStart + contentLength);
    out = std::move(req);
    return MockParse::Ready;
}

QByteArray httpReason(int status)
{
    switch (status) {
    case 200: return QByteArrayLiteral("OK");
    case 400: return QByteArrayLiteral("Bad Request");
    case 404: return QByteArrayLiteral("Not Found");
    case 405: return QByteArrayLiteral("Method Not Allowed");
    case 409: return QByteArrayLiteral("Conflict");
    case 411: return QByteArrayLiteral("Length Required");
    case 413: return QByteArrayLiteral("Content Too Large");
    case 422: return QByteArrayLiteral("Unprocessable Entity");
    case 431: return QByteArrayLiteral("Request Header Fields Too Large");
    case 500: return QByteArrayLiteral("Internal Server Error");
    case 501: return QByteArrayLiteral("Not Implemented");
    case 503: return QByteArrayLiteral("Service Unavailable");
    default: return QByteArrayLiteral("Status");
    }
}

static void appendHead(QByteArray &out, int status, QByteArrayView contentType, bool keepAlive)
{
    out += "HTTP/1.1 ";
    out += QByteArray::number(status);
    out += ' ';
    out += httpReason(status);
    out += "\r\nserver: sweepbench-mock\r\n";
    if (!contentType.isEmpty()) {
        out += "content-type: ";
        out += contentType;
        out += "\r\n";
    }
    if (!keepAlive)
        out += "connection: close\r\n";
}

QByteArray httpResponse(int status, QByteArrayView contentType, QByteArrayView body, bool keepAlive,
                        QByteArrayView extraHeaders)
{
    QByteArray out;
    out.reserve(160 + extraHeaders.size() + body.size());
    appendHead(out, status, contentType, keepAlive);
    out += extraHeaders;
    out += "content-length: ";
    out += QByteArray::number(body.size());
    out += "\r\n\r\n";
    out += body;
    return out;
}

QByteArray httpChunkedHead(int status, QByteArrayView contentType, bool keepAlive, QByteArrayView extraHeaders)
{
    QByteArray out;
    appendHead(out, status, contentType, keepAlive);
    out += extraHeaders;
    out += "cache-control: no-cache\r\ntransfer-encoding: chunked\r\n\r\n";
    return out;
}

void appendChunk(QByteArray &out, QByteArrayView data)
{
    if (data.isEmpty())
        return; // an empty chunk would end the body
    out += QByteArray::number(data.size(), 16);
    out += "\r\n";
    out += data;
    out += "\r\n";
}

} // namespace sb

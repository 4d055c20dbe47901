#pragma once
// A lean HTTP/1.1 request parser and response builders for the mock server. Lean on purpose:
// the mock must serve 1024 keep-alive streams on two cores, and it only has to understand what
// benchmark clients and hook calls send (Content-Length bodies, no chunked uploads).
#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QPair>

namespace sb {

struct MockHttpRequest {
    QByteArray method;
    QByteArray target;               // as sent: path?query
    QByteArray path;
    QByteArray query;
    QList<QPair<QByteArray, QByteArray>> headers; // names lower-cased
    QByteArray body;
    bool keepAlive = true;

    QByteArray header(QByteArrayView lowerName) const;
    // Percent-decoded value of a query parameter; `found` tells an empty value from a missing one.
    QByteArray queryValue(QByteArrayView name, bool *found = nullptr) const;
};

enum class MockParse { NeedMore, Ready, Error };

// Takes one complete request off the front of `buffer`. On Error, `status` is the HTTP status to
// answer with (400, 411, 413, 431, 501) before closing the connection.
MockParse parseHttpRequest(QByteArray &buffer, MockHttpRequest &out, int *status);

QByteArray httpReason(int status);

// A complete response with Content-Length. `extraHeaders` is raw "name: value\r\n" lines.
QByteArray httpResponse(int status, QByteArrayView contentType, QByteArrayView body, bool keepAlive,
                        QByteArrayView extraHeaders = {});

// Status line and headers of a chunked response (a stream); chunks follow.
QByteArray httpChunkedHead(int status, QByteArrayView contentType, bool keepAlive, QByteArrayView extraHeaders = {});
// Appends one chunk of the chunked transfer coding to `out`.
void appendChunk(QByteArray &out, QByteArrayView data);
inline QByteArray lastChunk() { return QByteArrayLiteral("0\r\n\r\n"); }

} // namespace sb

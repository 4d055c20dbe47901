// sweepbench-secretbench: how fast the secret scrub (spec/SecretSet) goes through a file the size
// of a large records.jsonl. Not a test: it prints MB/s (tests assert no speeds). The file is
// synthetic records lines, with the key leaked (raw or JSON-escaped) every few thousand lines,
// scrubbed as the export does (whole file in memory), then checked again as the export's final
// check does. Beside it, for reference, the scrub SweepBench had before spec/SecretMatcher: a
// plain search for four exact forms (raw, JSON-, HTML-, %-escaped) of each secret, which finds
// none of the decoded, base64, case or zero-width forms.
//
//   sweepbench-secretbench [MB]     (default 100)
#include "spec/SecretSet.h"
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>
#include <cstdio>

using namespace sb;

namespace {
QByteArray syntheticRecords(qsizetype targetBytes, const QByteArray &key, int *leaks)
{
    QByteArray out;
    out.reserve(targetBytes + 1024);
    const QByteArray encodedKey = QByteArray(key).replace("-", "\\u002d");
    for (int i = 0; out.size() < targetBytes; ++i) {
        out += "{\"i\":" + QByteArray::number(i) + ",\"send_ns\":" + QByteArray::number(qint64(i) * 1234567)
               + ",\"first_token_ns\":" + QByteArray::number(qint64(i) * 1234567 + 45678901) + ",\"end_ns\":"
               + QByteArray::number(qint64(i) * 1234567 + 987654321) + ",\"ttft_ms\":45.679,\"latency_ms\":987.654,\"itl_ms\":7.1234"
               + ",\"status\":200,\"ok\":true,\"error\":\"\",\"input_tokens\":512,\"output_tokens\":128,\"cached_tokens\":null"
               + ",\"gaps_us\":[7012,6998,7105,7001,6987,7230,7044,6990,7011,7003,6995,7120]}\n";
        if (i % 5000 == 4999) { // a failed request whose error sample quotes the key
            out += "{\"i\":" + QByteArray::number(i) + ",\"status\":401,\"ok\":false,\"error\":\"Incorrect API key provided: "
                   + (i % 10000 == 9999 ? key : encodedKey) + " \\u0026 try again\"}\n";
            ++*leaks;
        }
    }
    return out;
}

// The previous scrub, for reference: each exact form of each secret replaced in turn.
QByteArray exactFormsScrub(QByteArray data, const QStringList &secrets, int *count)
{
    for (const QString &secret : secrets) {
        const QByteArray json = QJsonDocument(QJsonArray{secret}).toJson(QJsonDocument::Compact);
        for (const QByteArray &form : {secret.toUtf8(), json.mid(2, json.size() - 4), secret.toHtmlEscaped().toUtf8(),
                                       QUrl::toPercentEncoding(secret)}) {
            *count += int(data.count(form));
            data.replace(form, "[redacted]");
        }
    }
    return data;
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const qsizetype mb = argc > 1 ? QByteArray(argv[1]).toLongLong() : 100;
    const QByteArray key = "sk-proj-Abc123-DEF456_ghi789";
    SecretSet set;
    set.add(QStringLiteral("Bearer ") + QString::fromLatin1(key));
    int leaks = 0;
    const QByteArray data = syntheticRecords(mb * 1024 * 1024, key, &leaks);
    const double size = double(data.size()) / (1024.0 * 1024.0);

    QElapsedTimer t;
    t.start();
    int count = 0;
    const QByteArray scrubbed = set.scrub(data, &count);
    const double scrubS = double(t.nsecsElapsed()) / 1e9;
    t.restart();
    const bool still = set.containedIn(scrubbed); // the export's final check: a clean file, read to its end
    const double checkS = double(t.nsecsElapsed()) / 1e9;
    std::printf("file %.1f MB, %d lines leak the key (half of them JSON-escaped)\n", size, leaks);
    std::printf("scrub  %.2f s  %.0f MB/s  %d replacements\n", scrubS, size / scrubS, count);
    std::printf("check  %.2f s  %.0f MB/s  %s\n", checkS, size / checkS, still ? "a secret is still there" : "clean");
    t.restart();
    int exactCount = 0;
    const QByteArray exact = exactFormsScrub(data, set.values(), &exactCount);
    const double exactS = double(t.nsecsElapsed()) / 1e9;
    std::printf("previous exact-forms scrub  %.2f s  %.0f MB/s  %d replacements\n", exactS, size / exactS, exactCount);
    return exact.size() > 0 ? 0 : 1;
}

#include "workload/Dataset.h"
#include "io/BoundedJson.h"
#include "io/BoundedRead.h"
#include "io/JsonScan.h"
#include "io/LineReader.h"
#include "io/ReadLimits.h"
#include <QDir>
#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <algorithm>
#include <cmath>

namespace sb {

namespace {
QByteArray jsonString(const QString &s)
{
    // QJsonDocument escapes exactly as JSON needs; strip the array brackets around it.
    const QByteArray a = QJsonDocument(QJsonArray{s}).toJson(QJsonDocument::Compact);
    return a.mid(1, a.size() - 2);
}

// A count read from a JSON value: an integer in [lo, hi], else -1.
int boundedInt(const QJsonValue &v, int lo, int hi)
{
    return int(jsonWholeNumber(v, lo, hi).value_or(-1));
}

struct Loader {
    const QString &file;
    Dataset *out;
    QString *error;

    bool fail(int line, const QString &what)
    {
        *error = line > 0 ? QStringLiteral("%1:%2: %3").arg(file).arg(line).arg(what) : QStringLiteral("%1: %2").arg(file, what);
        return false;
    }

    // A chat `messages` array of {role, content} objects with string contents.
    bool messages(const QJsonValue &v, int line, DatasetEntry &e)
    {
        const QJsonArray a = v.toArray();
        if (!v.isArray() || a.isEmpty())
            return fail(line, QStringLiteral("messages: expected a non-empty array of {role, content} objects"));
        for (qsizetype i = 0; i < a.size(); ++i) {
            const QJsonObject m = a.at(i).toObject();
            if (!a.at(i).isObject() || !m.value(QStringLiteral("role")).isString() || !m.value(QStringLiteral("content")).isString())
                return fail(line, QStringLiteral("messages[%1]: expected an object with string role and content").arg(i));
        }
        e.messagesJson = QJsonDocument(a).toJson(QJsonDocument::Compact);
        return true;
    }

    // An optional `timestamp`: the entry's arrival in milliseconds (any origin: replay uses the
    // gaps), for open-loop `arrival: trace`.
    bool timestamp(const QJsonObject &o, int line, DatasetEntry &e)
    {
        const QJsonValue ts = o.value(QStringLiteral("timestamp"));
        if (ts.isUndefined())
            return true;
        if (!ts.isDouble() || !(ts.toDouble() >= 0) || !std::isfinite(ts.toDouble()))
            return fail(line, QStringLiteral("timestamp: expected a number of milliseconds ≥ 0"));
        e.timestampMs = ts.toDouble();
        return true;
    }

    bool jsonlEntry(const QJsonObject &o, int line, DatasetEntry &e)
    {
        const QJsonValue text = o.value(QStringLiteral("text")), msgs = o.value(QStringLiteral("messages"));
        if (text.isString() && !text.toString().isEmpty())
            e.textJson = jsonString(text.toString());
        else if (!msgs.isUndefined()) {
            if (!messages(msgs, line, e))
                return false;
        } else
            return fail(line, QStringLiteral("expected a non-empty string `text` or a `messages` array"));
        if (const QJsonValue ot = o.value(QStringLiteral("output_tokens")); !ot.isUndefined()) {
            e.outputTokens = boundedInt(ot, 1, kMaxLength);
            if (e.outputTokens < 0)
                return fail(line, QStringLiteral("output_tokens: expected an integer from 1 to %1").arg(kMaxLength));
        }
        return timestamp(o, line, e);
    }

    bool mooncakeEntry(const QJsonObject &o, int line, DatasetEntry &e)
    {
        e.inputTokens = boundedInt(o.value(QStringLiteral("input_length")), 1, kMaxLength);
        if (e.inputTokens < 0)
            return fail(line, QStringLiteral("input_length: expected an integer from 1 to %1").arg(kMaxLength));
        e.outputTokens = boundedInt(o.value(QStringLiteral("output_length")), 1, kMaxLength);
        if (e.outputTokens < 0)
            return fail(line, QStringLiteral("output_length: expected an integer from 1 to %1").arg(kMaxLength));
        if (!timestamp(o, line, e))
            return false;
        if (const QJsonValue h = o.value(QStringLiteral("hash_ids")); !h.isUndefined()) {
            const QJsonArray ids = h.toArray();
            if (!h.isArray())
                return fail(line, QStringLiteral("hash_ids: expected an array of integers"));
            const qsizetype needed = (e.inputTokens + out->blockTokens - 1) / out->blockTokens;
            if (ids.size() > kMaxHashIdsPerEntry || ids.size() > needed)
                return fail(line, QStringLiteral("hash_ids: %1 blocks of %2 tokens are more than input_length %3 holds (%4)")
                                      .arg(ids.size()).arg(out->blockTokens).arg(e.inputTokens).arg(needed));
            e.hashIds.reserve(std::size_t(ids.size()));
            for (qsizetype i = 0; i < ids.size(); ++i) {
                const QJsonValue id = ids.at(i);
                if (!id.isDouble() || id.toDouble() < 0 || id.toDouble() > 9007199254740992.0 || id.toDouble() != std::floor(id.toDouble()))
                    return fail(line, QStringLiteral("hash_ids[%1]: expected an integer ≥ 0").arg(i));
                e.hashIds.push_back(quint64(id.toDouble()));
            }
        }
        return true;
    }

    bool jsonLines(const QString &path)
    {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return fail(0, QStringLiteral("cannot open: %1").arg(f.errorString()));
        // One line past the bound refuses the file: stop there instead of reading the rest.
        LineReader reader(f, kMaxDatasetLineBytes, LineReader::TooLong::Stop);
        QByteArray text;
        int line = 0;
        while (reader.next(&text)) {
            ++line;
            if (text.isEmpty())
                continue;
            if (out->entries.size() >= std::size_t(kMaxDatasetEntries))
                return fail(line, QStringLiteral("more than %1 entries").arg(kMaxDatasetEntries));
            QJsonParseError pe;
            const QJsonDocument doc = QJsonDocument::fromJson(text, &pe);
            if (pe.error != QJsonParseError::NoError || !doc.isObject())
                return fail(line, pe.error != QJsonParseError::NoError
                                      ? QStringLiteral("not JSON (%1 at column %2)").arg(pe.errorString()).arg(pe.offset + 1)
                                      : QStringLiteral("expected a JSON object"));
            DatasetEntry e;
            e.line = line;
            if (!(out->format == DatasetFormat::Mooncake ? mooncakeEntry(doc.object(), line, e) : jsonlEntry(doc.object(), line, e)))
                return false;
            out->entries.push_back(std::move(e));
        }
        if (reader.tooLong() > 0)
            return fail(line + 1, QStringLiteral("line longer than %1 MiB").arg(kMaxDatasetLineBytes / (1024 * 1024)));
        if (f.error() != QFileDevice::NoError)
            return fail(0, QStringLiteral("cannot read: %1").arg(f.errorString()));
        return true;
    }

    // The line each item of the top-level array starts on, so an entry's error can name it: one
    // pass with a running newline count (counting from the file's start for each item made
    // loading quadratic: 100,000 conversations took minutes).
    static std::vector<int> itemLines(const QByteArray &json)
    {
        std::vector<int> at;
        int depth = 0, line = 1;
        bool inString = false, escaped = false, expectItem = false;
        for (qsizetype i = 0; i < json.size(); ++i) {
            const char c = json.at(i);
            if (c == '\n') // never inside a string of a document that parsed
                ++line;
            if (inString) {
                if (escaped)
                    escaped = false;
                else if (c == '\\')
                    escaped = true;
                else if (c == '"')
                    inString = false;
                continue;
            }
            if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
                continue;
            if (expectItem && depth == 1 && c != ']') {
                at.push_back(line);
                expectItem = false;
            }
            if (c == '"')
                inString = true;
            else if (c == '[' || c == '{') {
                if (++depth == 1 && c == '[')
                    expectItem = true;
            } else if (c == ']' || c == '}')
                --depth;
            else if (c == ',' && depth == 1)
                expectItem = true;
        }
        return at;
    }

    bool shareGpt(const QString &path)
    {
        // One JSON array: parsed whole, so its size and value count are capped first.
        QByteArray json;
        if (!readRegularFile(path, kMaxResultsFileBytes, &json, error))
            return false;
        if (scanJsonShape(json).values > kMaxJsonValues)
            return fail(0, QStringLiteral("more than %1 JSON values").arg(kMaxJsonValues));
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
        if (pe.error != QJsonParseError::NoError)
            return fail(int(QByteArrayView(json).first(std::clamp<qsizetype>(pe.offset, 0, json.size())).count('\n')) + 1,
                        QStringLiteral("not JSON (%1)").arg(pe.errorString()));
        if (!doc.isArray())
            return fail(1, QStringLiteral("expected a JSON array of {conversations: [...]} objects (ShareGPT)"));
        const QJsonArray items = doc.array();
        if (items.size() > kMaxDatasetEntries)
            return fail(1, QStringLiteral("more than %1 entries").arg(kMaxDatasetEntries));
        const std::vector<int> lines = itemLines(json);
        for (qsizetype i = 0; i < items.size(); ++i) {
            const int line = std::size_t(i) < lines.size() ? lines[std::size_t(i)] : 0;
            const QJsonObject o = items.at(i).toObject();
            const QJsonValue conv = o.value(QStringLiteral("conversations"));
            if (!items.at(i).isObject() || !conv.isArray())
                return fail(line, QStringLiteral("entry %1: expected an object with a `conversations` array").arg(i));
            // The first user turn is the prompt; the model turn right after it gives the output length.
            QString prompt;
            int outChars = -1;
            const QJsonArray turns = conv.toArray();
            for (qsizetype t = 0; t < turns.size(); ++t) {
                const QJsonObject turn = turns.at(t).toObject();
                const QString from = turn.value(QStringLiteral("from")).toString();
                if (!turns.at(t).isObject() || !turn.value(QStringLiteral("value")).isString())
                    return fail(line, QStringLiteral("entry %1, turn %2: expected an object with string `from` and `value`").arg(i).arg(t));
                const bool user = from == QLatin1String("human") || from == QLatin1String("user");
                if (prompt.isEmpty()) {
                    if (user)
                        prompt = turn.value(QStringLiteral("value")).toString();
                } else if (!user) {
                    outChars = int(turn.value(QStringLiteral("value")).toString().size());
                    break;
                }
            }
            if (prompt.isEmpty() || outChars <= 0) {
                ++out->stats.skipped; // as vLLM's and AIPerf's ShareGPT readers do
                continue;
            }
            // The reply's length is the request's max_tokens: bounded as every requested length is.
            if (outChars / kShareGptCharsPerToken > kMaxLength)
                return fail(line, QStringLiteral("entry %1: the reply's %2 characters ask for about %3 output tokens (at %4 characters a token), "
                                                 "more than the %5 a request may")
                                      .arg(i)
                                      .arg(outChars)
                                      .arg(std::llround(outChars / kShareGptCharsPerToken))
                                      .arg(kShareGptCharsPerToken)
                                      .arg(kMaxLength));
            DatasetEntry e;
            e.line = line;
            e.textJson = jsonString(prompt);
            e.outputChars = outChars;
            out->entries.push_back(std::move(e));
        }
        return true;
    }
};

void computeStats(Dataset &d)
{
    DatasetStats &s = d.stats;
    s.entries = int(d.entries.size());
    double chars = 0, input = 0, output = 0;
    int texts = 0, inputs = 0, timestamps = 0;
    QSet<quint64> unique;
    for (const DatasetEntry &e : d.entries) {
        if (!e.textJson.isEmpty() || !e.messagesJson.isEmpty()) {
            chars += double(std::max(e.textJson.size(), e.messagesJson.size()));
            ++texts;
        }
        if (e.inputTokens > 0) {
            input += e.inputTokens;
            ++inputs;
            s.minInput = s.minInput < 0 ? e.inputTokens : std::min(s.minInput, e.inputTokens);
            s.maxInput = std::max(s.maxInput, e.inputTokens);
        }
        const double out = e.outputTokens > 0 ? e.outputTokens : e.outputChars > 0 ? e.outputChars / kShareGptCharsPerToken : -1;
        if (out > 0)
            output += out, ++s.withOutput;
        s.blocks += int(e.hashIds.size());
        for (quint64 h : e.hashIds)
            unique.insert(h);
        timestamps += e.timestampMs >= 0;
    }
    s.meanPromptChars = texts ? chars / texts : 0;
    s.meanInput = inputs ? input / inputs : 0;
    s.meanOutput = s.withOutput ? output / s.withOutput : 0;
    s.uniqueBlocks = int(unique.size());
    s.timestamps = !d.entries.empty() && timestamps == int(d.entries.size());
}
} // namespace

QByteArray DatasetEntry::promptTextJson() const
{
    if (!textJson.isEmpty() || messagesJson.isEmpty())
        return textJson;
    QStringList parts;
    for (const QJsonValue &m : QJsonDocument::fromJson(messagesJson).array())
        parts.append(m.toObject().value(QStringLiteral("content")).toString());
    return jsonString(parts.join(QLatin1Char('\n')));
}

const DatasetEntry &Dataset::entryFor(std::int64_t ticket, bool warmup) const
{
    const std::int64_t n = std::int64_t(entries.size());
    const std::int64_t i = ticket % n;
    return entries[std::size_t(warmup ? n - 1 - i : i)];
}

std::vector<double> Dataset::timestampsMs() const
{
    if (!stats.timestamps)
        return {};
    std::vector<double> out;
    out.reserve(entries.size());
    const double first = entries.front().timestampMs;
    for (const DatasetEntry &e : entries)
        out.push_back(e.timestampMs - first);
    return out;
}

QString Dataset::describe() const
{
    const DatasetStats &s = stats;
    QString text = QStringLiteral("%1 dataset %2: %3 requests").arg(toString(format), QFileInfo(path).fileName()).arg(s.entries);
    if (s.skipped)
        text += QStringLiteral(" (%1 conversations without a user turn and a reply skipped)").arg(s.skipped);
    if (s.minInput > 0)
        text += QStringLiteral(", input %1-%2 tokens (mean %3)").arg(s.minInput).arg(s.maxInput).arg(s.meanInput, 0, 'f', 1);
    else
        text += QStringLiteral(", prompts of %1 characters on average").arg(s.meanPromptChars, 0, 'f', 0);
    if (s.withOutput)
        text += QStringLiteral(", output %1 tokens on average (%2 of %3 entries give it%4)")
                    .arg(s.meanOutput, 0, 'f', 1)
                    .arg(s.withOutput)
                    .arg(s.entries)
                    .arg(format == DatasetFormat::ShareGpt ? QStringLiteral(", estimated at 4 characters a token") : QString());
    if (s.blocks)
        text += QStringLiteral(", %1 of %2 blocks shared").arg(s.blocks - s.uniqueBlocks).arg(s.blocks);
    if (s.timestamps)
        text += QStringLiteral(", timestamps over %1 s").arg((entries.back().timestampMs - entries.front().timestampMs) / 1000, 0, 'f', 1);
    return text;
}

QString resolveDatasetPath(const DatasetSpec &spec, const QString &specFile)
{
    if (QDir::isAbsolutePath(spec.path) || specFile.isEmpty())
        return QFileInfo(spec.path).absoluteFilePath();
    return QFileInfo(QFileInfo(specFile).absoluteDir(), spec.path).absoluteFilePath();
}

bool loadDataset(const DatasetSpec &spec, const QString &specFile, Dataset *out, QString *error)
{
    Dataset d;
    d.format = spec.format;
    d.path = resolveDatasetPath(spec, specFile);
    d.blockTokens = spec.blockTokens;
    Loader loader{d.path, &d, error};
    if (spec.format != DatasetFormat::ShareGpt && !checkRegularFile(d.path, kMaxDatasetBytes, error))
        return false;
    if (!(spec.format == DatasetFormat::ShareGpt ? loader.shareGpt(d.path) : loader.jsonLines(d.path)))
        return false;
    if (d.entries.empty())
        return loader.fail(0, QStringLiteral("no usable entries"));
    QFile file(d.path);
    QCryptographicHash sha(QCryptographicHash::Sha256);
    if (!file.open(QIODevice::ReadOnly) || !sha.addData(&file))
        return loader.fail(0, QStringLiteral("cannot read it again to fingerprint it: %1").arg(file.errorString()));
    d.sha256 = QString::fromLatin1(sha.result().toHex());
    computeStats(d);
    *out = std::move(d);
    return true;
}

} // namespace sb

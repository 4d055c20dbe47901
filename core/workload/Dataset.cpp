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
#include <QHash>
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
    bool asSessions = false;
    // mooncake or jsonl as sessions: each entry's `session_id` ("" = none: a session of its own), in
    // entry order, grouped once the whole file is read
    QStringList sessionKeys;

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
            // A session's history is the earlier turns and the server's own answers: an entry
            // carrying a conversation of its own would send it twice.
            if (asSessions)
                return fail(line, QStringLiteral("messages: as a session's turn an entry is one user message, its `text` (the history is the "
                                                 "earlier turns and the server's answers)"));
            if (!messages(msgs, line, e))
                return false;
        } else
            return fail(line, QStringLiteral("expected a non-empty string `text` or a `messages` array"));
        if (const QJsonValue ot = o.value(QStringLiteral("output_tokens")); !ot.isUndefined()) {
            e.outputTokens = boundedInt(ot, 1, kMaxLength);
            if (e.outputTokens < 0)
                return fail(line, QStringLiteral("output_tokens: expected an integer from 1 to %1").arg(kMaxLength));
        }
        if (asSessions && !sessionFields(o, line, e))
            return false;
        return timestamp(o, line, e);
    }

    // `session_id` (a string or an integer, as agentic traces write it) and `delay` (the think
    // time in ms before this turn, after the previous answer) of a mooncake or jsonl entry read
    // as a turn.
    bool sessionFields(const QJsonObject &o, int line, DatasetEntry &e)
    {
        QString key;
        if (const QJsonValue id = o.value(QStringLiteral("session_id")); !id.isUndefined()) {
            if (id.isString() && !id.toString().isEmpty())
                key = QLatin1Char('s') + id.toString();
            else if (const auto n = jsonWholeNumber(id, -9007199254740992LL, 9007199254740992LL))
                key = QLatin1Char('n') + QString::number(*n);
            else
                return fail(line, QStringLiteral("session_id: expected a non-empty string or an integer"));
        }
        if (const QJsonValue d = o.value(QStringLiteral("delay")); !d.isUndefined()) {
            if (!d.isDouble() || !(d.toDouble() >= 0) || d.toDouble() > kMaxThinkTimeMs)
                return fail(line, QStringLiteral("delay: expected milliseconds from 0 to %1").arg(kMaxThinkTimeMs));
            e.delayMs = int(std::lround(d.toDouble()));
        }
        sessionKeys.append(key);
        return true;
    }

    // Mooncake or jsonl as sessions: entries sharing a session_id become one session, its turns
    // in file order; sessions are ordered by their first turn (a time-ordered trace stays in time
    // order), and an entry without one is a session of one turn.
    bool groupSessions()
    {
        std::vector<std::vector<std::uint32_t>> members;
        QHash<QString, std::size_t> index;
        for (std::size_t i = 0; i < out->entries.size(); ++i) {
            const QString &key = sessionKeys.at(qsizetype(i));
            std::size_t k = members.size();
            if (!key.isEmpty()) {
                const auto it = index.constFind(key);
                if (it != index.constEnd())
                    k = it.value();
                else
                    index.insert(key, k);
            }
            if (k == members.size())
                members.emplace_back();
            if (members[k].size() >= std::size_t(kMaxSessionTurns))
                return fail(out->entries[i].line, QStringLiteral("session_id %1: more than %2 turns").arg(key.mid(1, 80)).arg(kMaxSessionTurns));
            members[k].push_back(std::uint32_t(i));
        }
        std::vector<DatasetEntry> ordered;
        ordered.reserve(out->entries.size());
        for (const auto &turns : members) {
            out->sessions.push_back({std::uint32_t(ordered.size()), std::uint32_t(turns.size())});
            for (const std::uint32_t i : turns)
                ordered.push_back(std::move(out->entries[i]));
        }
        out->entries = std::move(ordered);
        return true;
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
        if (asSessions && !sessionFields(o, line, e))
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

    // The reply's length is the request's max_tokens: bounded as every requested length is.
    bool replyBounded(int outChars, qsizetype item, int line)
    {
        if (outChars / kShareGptCharsPerToken <= kMaxLength)
            return true;
        return fail(line, QStringLiteral("entry %1: the reply's %2 characters ask for about %3 output tokens (at %4 characters a token), "
                                         "more than the %5 a request may")
                              .arg(item)
                              .arg(outChars)
                              .arg(std::llround(outChars / kShareGptCharsPerToken))
                              .arg(kShareGptCharsPerToken)
                              .arg(kMaxLength));
    }

    // A ShareGPT conversation as one session: each user message with the reply after it is a
    // turn (the reply gives that turn's output length; the server's own answer is what goes back
    // as history). User messages in a row are one message; a reply before any user message, a
    // `system` message and a last user message with no reply are not sent. A conversation with
    // nothing to send (empty, only replies, no reply to any user message) is skipped and counted,
    // as in single-turn use: real ShareGPT dumps hold such entries, and one must not make the
    // whole file unusable as sessions.
    bool shareGptSession(const QJsonArray &turns, qsizetype item, int line)
    {
        if (turns.isEmpty()) {
            ++out->stats.skipped;
            return true;
        }
        const std::size_t first = out->entries.size();
        QString pending;
        for (qsizetype t = 0; t < turns.size(); ++t) {
            const QJsonObject turn = turns.at(t).toObject();
            if (!turns.at(t).isObject() || !turn.value(QStringLiteral("value")).isString())
                return fail(line, QStringLiteral("entry %1, turn %2: expected an object with string `from` and `value`").arg(item).arg(t));
            const QString from = turn.value(QStringLiteral("from")).toString();
            const QString value = turn.value(QStringLiteral("value")).toString();
            if (from == QLatin1String("human") || from == QLatin1String("user")) {
                if (!value.isEmpty())
                    pending += (pending.isEmpty() ? QString() : QStringLiteral("\n")) + value;
                continue;
            }
            if (from == QLatin1String("system") || pending.isEmpty() || value.isEmpty())
                continue;
            if (!replyBounded(int(value.size()), item, line))
                return false;
            if (out->entries.size() - first >= std::size_t(kMaxSessionTurns))
                return fail(line, QStringLiteral("entry %1: conversations: more than %2 turns").arg(item).arg(kMaxSessionTurns));
            if (out->entries.size() >= std::size_t(kMaxDatasetEntries))
                return fail(line, QStringLiteral("more than %1 turns in all").arg(kMaxDatasetEntries));
            DatasetEntry e;
            e.line = line;
            e.textJson = jsonString(pending);
            e.outputChars = int(value.size());
            out->entries.push_back(std::move(e));
            pending.clear();
        }
        if (out->entries.size() == first) {
            ++out->stats.skipped; // no user message, or none answered: no output length for it
            return true;
        }
        out->sessions.push_back({std::uint32_t(first), std::uint32_t(out->entries.size() - first)});
        return true;
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
            if (asSessions) {
                if (!shareGptSession(conv.toArray(), i, line))
                    return false;
                continue;
            }
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
            if (!replyBounded(outChars, i, line))
                return false;
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
    s.sessions = int(d.sessions.size());
    if (!d.sessions.empty()) { // a session is paced by its first turn; later ones follow their answers
        s.timestamps = std::all_of(d.sessions.cbegin(), d.sessions.cend(),
                                   [&](const DatasetSession &x) { return d.entries[x.first].timestampMs >= 0; });
        for (const DatasetSession &x : d.sessions)
            s.maxTurns = std::max(s.maxTurns, int(x.turns));
    }
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

const DatasetSession &Dataset::sessionFor(std::int64_t id, bool warmup) const
{
    const std::int64_t n = std::int64_t(sessions.size());
    const std::int64_t i = id % n;
    return sessions[std::size_t(warmup ? n - 1 - i : i)];
}

const DatasetEntry &Dataset::turnEntry(std::int64_t id, int turn, bool warmup) const
{
    const DatasetSession &s = sessionFor(id, warmup);
    return entries[s.first + std::uint32_t(std::clamp<int>(turn, 1, int(s.turns)) - 1)];
}

std::vector<double> Dataset::timestampsMs() const
{
    if (!stats.timestamps)
        return {};
    std::vector<double> out;
    if (!sessions.empty()) {
        out.reserve(sessions.size());
        const double first = entries[sessions.front().first].timestampMs;
        for (const DatasetSession &s : sessions)
            out.push_back(entries[s.first].timestampMs - first);
        return out;
    }
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
    if (s.sessions)
        text += QStringLiteral(" in %1 sessions of up to %2 turns").arg(s.sessions).arg(s.maxTurns);
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

bool loadDataset(const DatasetSpec &spec, const QString &specFile, Dataset *out, QString *error, bool asSessions)
{
    Dataset d;
    d.format = spec.format;
    d.path = resolveDatasetPath(spec, specFile);
    d.blockTokens = spec.blockTokens;
    Loader loader{d.path, &d, error, asSessions, {}};
    if (spec.format != DatasetFormat::ShareGpt && !checkRegularFile(d.path, kMaxDatasetBytes, error))
        return false;
    if (!(spec.format == DatasetFormat::ShareGpt ? loader.shareGpt(d.path) : loader.jsonLines(d.path)))
        return false;
    if (loader.asSessions && spec.format != DatasetFormat::ShareGpt && !loader.groupSessions())
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
